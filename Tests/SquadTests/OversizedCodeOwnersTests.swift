import Foundation
import Testing

/// GitHub ignores a CODEOWNERS file of 3 MB or more: squad must not enforce rules GitHub does not read. Lint says
/// so, and owners and the gate fail closed to the platform team with the reason on stderr (the size is asked of
/// git before the file is read; how long that takes is the benchmark's business, not a wall-clock test's).
@Suite struct OversizedCodeOwnersTests {
    func repository() async throws -> GitRepository {
        let repo = try await GitRepository()
        var text = "* @courier/platform\n/Modules/Payments/ @courier/payments\n"
        let line = "/generated/folder-number-%07d/ @courier/payments\n"
        for index in 0..<70_000 { text += String(format: line, index) }
        #expect(text.utf8.count >= 3_000_000)
        try repo.write("CODEOWNERS", text)
        try repo.write(".github/teams.json", #"{"@courier/platform": ["pat"], "@courier/payments": ["paula"]}"#)
        try repo.write("Modules/Payments/Pay.swift")
        try await repo.commit("base")
        try await repo.git("checkout", "-q", "-b", "pr")
        try repo.write("Modules/Payments/Pay.swift", "changed\n")
        try await repo.commit("change")
        return repo
    }

    @Test func lintOwnersAndTheGateFailClosed() async throws {
        let repo = try await repository()
        let lint = await repo.squad(["lint"])
        #expect(lint.status == 1)
        #expect(lint.output.contains("GitHub ignores a CODEOWNERS file of 3 MB or more"), "\(lint.output.prefix(400))")
        let owners = await repo.squad(["owners", "Modules/Payments/Pay.swift"])
        #expect(owners.output == "Modules/Payments/Pay.swift\t@courier/platform\n")
        #expect(owners.errors.contains("GitHub ignores a CODEOWNERS file of 3 MB or more"))
        let approval = #"[{"user": {"login": "paula"}, "state": "APPROVED", "submitted_at": "2026-11-20T10:00:00Z"}]"#
        let gate = await repo.squad(
            ["gate", "--base", "main", "--author", "mallory", "--reviews", "-"], stdin: approval)
        #expect(gate.status == 1, "a payments approval does not count: GitHub enforces no payments rule")
        #expect(
            gate.errors.contains(
                "GitHub ignores a CODEOWNERS file of 3 MB or more, so none of its rules apply; every file needs @courier/platform"
            )
        )
    }
}
