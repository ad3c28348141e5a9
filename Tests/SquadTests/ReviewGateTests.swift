import Foundation
import SquadKit
import Testing

/// `squad gate --reviews`: the pull request's real reviews, in the JSON GitHub's REST API returns, decided with
/// GitHub's semantics, in real git repositories whose base holds CODEOWNERS and .github/teams.json.
@Suite struct ReviewGateTests {
    static let codeowners = """
        *                     @courier/platform
        /Modules/Payments/    @courier/payments
        /docs/                docs@example.com
        /tools/               @alice
        """
    static let teams = #"""
        {"@courier/platform": ["pat"], "@courier/payments": ["paula", "Pete"], "docs@example.com": ["dora"]}
        """#

    func repository(change: [String] = ["Modules/Payments/Pay.swift"]) async throws -> GitRepository {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", Self.codeowners)
        try repo.write(".github/teams.json", Self.teams)
        for file in ["Modules/Payments/Pay.swift", "docs/guide.md", "tools/run.sh", "README.md"] {
            try repo.write(file)
        }
        try await repo.commit("base")
        try await repo.git("checkout", "-q", "-b", "pr")
        for file in change { try repo.write(file, "changed\n") }
        try await repo.commit("change")
        return repo
    }

    /// One review as GitHub lists it.
    static func review(_ login: String, _ state: String, at minute: Int, commit: String = "c0ffee") -> String {
        #"{"id": \#(minute), "user": {"login": "\#(login)", "type": "User"}, "state": "\#(state)", "commit_id": "\#(commit)", "submitted_at": "2026-11-20T10:\#(minute < 10 ? "0" : "")\#(minute):00Z", "body": ""}"#
    }

    func gate(_ repo: GitRepository, _ reviews: [String], _ extra: [String] = []) async -> (
        status: Int32, output: String, errors: String
    ) {
        await repo.squad(
            ["gate", "--base", "main", "--author", "mallory", "--reviews", "-"] + extra,
            stdin: "[" + reviews.joined(separator: ",") + "]")
    }

    @Test func aTeamMembersApprovalSatisfiesTheTeam() async throws {
        let repo = try await repository()
        let result = await gate(repo, [Self.review("paula", "APPROVED", at: 1)])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("Modules/Payments/Pay.swift\tapproved by paula (for @courier/payments)"))
    }

    @Test func aCommentAfterAnApprovalChangesNothing() async throws {
        let repo = try await repository()
        let result = await gate(
            repo, [Self.review("paula", "APPROVED", at: 1), Self.review("paula", "COMMENTED", at: 2)])
        #expect(result.status == 0)
    }

    @Test func aChangeRequestThenAnApprovalMayMergeAndTheReverseBlocks() async throws {
        let repo = try await repository()
        let fixed = await gate(
            repo, [Self.review("pete", "CHANGES_REQUESTED", at: 1), Self.review("pete", "APPROVED", at: 2)])
        #expect(fixed.status == 0, "\(fixed.output)")
        let blocked = await gate(
            repo,
            [
                Self.review("paula", "APPROVED", at: 1), Self.review("pete", "APPROVED", at: 2),
                Self.review("pete", "CHANGES_REQUESTED", at: 3),
            ])
        #expect(blocked.status == 1)
        #expect(blocked.output.contains("changes requested by pete (owner through @courier/payments)"))
        #expect(blocked.output.contains("blocked: changes requested"))
    }

    @Test func aDismissedApprovalCountsForNothing() async throws {
        let repo = try await repository()
        let result = await gate(
            repo, [Self.review("paula", "APPROVED", at: 1), Self.review("paula", "DISMISSED", at: 2)])
        #expect(result.status == 1)
        #expect(result.output.contains("  @courier/payments (paula, pete) for Modules/Payments/Pay.swift"))
    }

    @Test func theAuthorsOwnApprovalNeverCounts() async throws {
        let repo = try await repository()
        let result = await repo.squad(
            ["gate", "--base", "main", "--author", "Paula", "--reviews", "-"],
            stdin: "[\(Self.review("paula", "APPROVED", at: 1))]")
        #expect(result.status == 1)
        #expect(result.output.contains("ignored approval by paula: the author"))
    }

    @Test func aStaleApprovalCountsOnlyWithoutDismissStale() async throws {
        let repo = try await repository()
        let head = try await repo.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
        let old = [Self.review("paula", "APPROVED", at: 1, commit: "0123456789abcdef")]
        #expect(await gate(repo, old).status == 0)
        let dismissed = await gate(repo, old, ["--dismiss-stale"])
        #expect(dismissed.status == 1)
        #expect(
            dismissed.output.contains(
                "ignored approval by paula: stale: approved 0123456, the head is \(head.prefix(7))"))
        #expect(
            await gate(repo, [Self.review("paula", "APPROVED", at: 1, commit: head)], ["--dismiss-stale"]).status == 0)
    }

    @Test func teamsComeFromTheBaseSoAPRCannotJoinATeam() async throws {
        let repo = try await repository()
        try repo.write(
            ".github/teams.json", #"{"@courier/payments": ["mallory", "eve"], "@courier/platform": ["eve"]}"#)
        try await repo.commit("let me in")
        let result = await gate(repo, [Self.review("eve", "APPROVED", at: 1)])
        #expect(result.status == 1)
        #expect(result.output.contains("ignored approval by eve: not an owner of any changed file"))
        // Locally, --teams overrides for a what-if.
        let file = repo.root.appendingPathComponent("what-if.json")
        try Data(#"{"@courier/payments": ["eve"], "@courier/platform": ["eve"]}"#.utf8).write(to: file)
        #expect(await gate(repo, [Self.review("eve", "APPROVED", at: 1)], ["--teams", file.path]).status == 0)
    }

    @Test func emailAndUserOwnersAndCaseInsensitiveLogins() async throws {
        let repo = try await repository(change: ["docs/guide.md", "tools/run.sh"])
        let result = await gate(
            repo, [Self.review("DORA", "APPROVED", at: 1), Self.review("Alice", "APPROVED", at: 2)])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("docs/guide.md\tapproved by DORA (for docs@example.com)"))
        #expect(result.output.contains("tools/run.sh\tapproved by Alice (for @alice)"))
        // PETE in the teams file is "Pete": still the same person.
        let payments = try await repository()
        #expect(await gate(payments, [Self.review("PETE", "APPROVED", at: 1)]).status == 0)
    }

    @Test func severalPagesConcatenatedAreOneList() async throws {
        let repo = try await repository(change: ["Modules/Payments/Pay.swift", "README.md"])
        let pages = "[\(Self.review("paula", "APPROVED", at: 1))]\n[\(Self.review("pat", "APPROVED", at: 2))]"
        let result = await repo.squad(["gate", "--base", "main", "--reviews", "-"], stdin: pages)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func jsonSaysTheSame() async throws {
        let repo = try await repository()
        let result = await gate(repo, [Self.review("pete", "CHANGES_REQUESTED", at: 1)], ["--format", "json"])
        #expect(result.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] ?? [:]
        #expect(object["may_merge"] as? Bool == false)
        let missing = object["missing"] as? [[String: Any]] ?? []
        #expect(missing.first?["people"] as? [String] == ["paula", "pete"])
        #expect((object["changes_requested"] as? [[String: Any]])?.first?["login"] as? String == "pete")
    }

    @Test(arguments: [
        ("not json", "not valid JSON"),
        (#"{"user": {"login": "a"}, "state": "APPROVED"}"#, "expected an array of reviews"),
        (#"[{"user": {}, "state": "APPROVED"}]"#, "needs user.login and a state"),
        (#"[{"user": {"login": "a"}, "state": "LGTM"}]"#, "needs user.login and a state"),
    ])
    func malformedReviewsFailClosedWithExit2(reviews: String, problem: String) async throws {
        let repo = try await repository()
        let result = await repo.squad(["gate", "--base", "main", "--reviews", "-"], stdin: reviews)
        #expect(result.status == 2)
        #expect(result.errors.hasPrefix("squad: --reviews '-': "), "\(result.errors)")
        #expect(result.errors.contains(problem), "\(result.errors)")
        #expect(result.errors.split(separator: "\n").count == 1)
        #expect(result.output.isEmpty)
    }

    /// Text order is not time order: 12:05+02:00 is 10:05Z, before pete's 10:06Z change request.
    @Test func reviewsAreOrderedByTheInstantNotTheText() async throws {
        let repo = try await repository()
        func review(_ state: String, _ time: String) async -> String {
            #"{"user": {"login": "pete"}, "state": "\#(state)", "commit_id": "c0ffee", "submitted_at": "\#(time)"}"#
        }
        let blocked = await gate(
            repo,
            [review("CHANGES_REQUESTED", "2026-11-20T10:06:00Z"), review("APPROVED", "2026-11-20T12:05:00+02:00")])
        #expect(blocked.status == 1, "the approval came first in time: the change request stands")
        let approved = await gate(
            repo,
            [review("CHANGES_REQUESTED", "2026-11-20T10:06:00.250Z"), review("APPROVED", "2026-11-20T07:06:00.5-0300")])
        #expect(approved.status == 0, "\(approved.output)\(approved.errors)")
    }

    @Test(arguments: [
        (#""submitted_at": "yesterday""#, "found 'yesterday'"), (#""submitted_at": null"#, "found none"),
        ("", "found none"), (#""submitted_at": "2026-02-30T10:00:00Z""#, "found '2026-02-30T10:00:00Z'"),
        (#""submitted_at": "2026-11-20T10:00:00""#, "found '2026-11-20T10:00:00'"),
    ])
    func aReviewWithoutAParsableTimeIsRefusedAndNamed(field: String, found: String) async throws {
        let repo = try await repository()
        let comma = field.isEmpty ? "" : ", "
        let result = await gate(
            repo,
            [
                Self.review("paula", "APPROVED", at: 1),
                #"{"user": {"login": "pete"}, "state": "APPROVED"\#(comma)\#(field)}"#,
            ])
        #expect(result.status == 2)
        #expect(
            result.errors.contains("review 2 (pete, APPROVED) has no ISO 8601 submitted_at (\(found))"),
            "\(result.errors)")
        #expect(result.output.isEmpty)
    }

    /// A repeated key could mean one thing to GitHub's tooling and another here: refused, key and line named.
    @Test func aRepeatedKeyInReviewsOrTeamsIsRefused() async throws {
        let repo = try await repository()
        let sneaky =
            #"[{"user": {"login": "mallory"}, "user": {"login": "paula"}, "state": "APPROVED", "submitted_at": "2026-11-20T10:00:00Z"}]"#
        let result = await repo.squad(
            ["gate", "--base", "main", "--author", "mallory", "--reviews", "-"], stdin: sneaky)
        #expect(result.status == 2)
        #expect(
            result.errors.contains(#"line 1, byte 32: the key "user" is repeated in one object"#), "\(result.errors)")
        try await repo.git("checkout", "-q", "main")
        try repo.write(
            ".github/teams.json", "{\n\"@courier/payments\": [\"paula\"],\n\"@courier/payments\": [\"mallory\"]\n}")
        try await repo.commit("a team listed twice")
        let lint = await repo.squad(["lint"])
        #expect(lint.status == 1)
        #expect(
            lint.output.contains(
                #".github/teams.json: not valid JSON at line 3, byte 34: the key "@courier/payments" is repeated"#),
            "\(lint.output)")
        try await repo.git("checkout", "-q", "pr")
        let gated = await gate(repo, [Self.review("mallory", "APPROVED", at: 1)])
        #expect(gated.status == 2 && gated.errors.contains("is repeated in one object"), "\(gated.errors)")
    }

    @Test func malformedTeamsFailClosedWithExit2() async throws {
        let repo = try await repository()
        try await repo.git("checkout", "-q", "main")
        try repo.write(".github/teams.json", #"{"@courier/payments": "paula"}"#)
        try await repo.commit("broken teams")
        try await repo.git("checkout", "-q", "pr")
        let result = await gate(repo, [Self.review("paula", "APPROVED", at: 1)])
        #expect(result.status == 2)
        #expect(
            result.errors
                == "squad: teams file 'main:.github/teams.json': '@courier/payments' must map to an array of logins\n")
        let unreadable = await gate(repo, [], ["--teams", "/nonexistent/teams.json"])
        #expect(unreadable.status == 2)
        #expect(unreadable.errors.contains("--teams '/nonexistent/teams.json' cannot be read"))
    }

    @Test func lintNamesOwnersTheTeamsFileDoesNotKnowAndEmptyTeams() async throws {
        let repo = try await repository()
        try repo.write(
            ".github/teams.json", #"{"@courier/platform": ["pat"], "@courier/payments": [], "@courier/ghost": []}"#)
        try await repo.commit("teams drift")
        let result = await repo.squad(["lint"])
        // Warnings: the gate already fails closed on them, and a new module's team is listed before its people.
        #expect(result.output.contains("warning: CODEOWNERS:3: owner docs@example.com is not in .github/teams.json"))
        #expect(result.output.contains("warning: .github/teams.json: @courier/payments has no members"))
        #expect(result.output.contains("warning: .github/teams.json: @courier/ghost has no members"))
        #expect(!result.output.contains("@alice is not in"), "a plain @user owner needs no entry")
        try repo.write(".github/teams.json", #"{"@courier/platform": "pat"}"#)
        try await repo.commit("broken")
        let broken = await repo.squad(["lint"])
        #expect(broken.status == 1)
        #expect(broken.output.contains(".github/teams.json: '@courier/platform' must map to an array of logins"))
    }
}
