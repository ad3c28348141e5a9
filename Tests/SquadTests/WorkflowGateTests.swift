import CoreTesting
import Foundation
import Testing

/// The code-owner gate must not be rewritable by the pull request it judges. On `pull_request` and
/// `pull_request_review` GitHub runs the workflow file of the pull request's merge commit, so a gate there could be
/// replaced with `exit 0`; these tests read the repository's workflow files and hold them to the rule.
@Suite struct WorkflowGateTests {
    struct Workflow {
        let name: String
        let text: String

        /// The events under the top-level `on:` key (a block of two-space-indented keys, or a one-line list); a
        /// trailing comment (`pull_request_target: # zizmor: ignore[…]`) is not part of the key.
        var triggers: Set<String> {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                String($0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                    .replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
            }
            guard let start = lines.firstIndex(where: { $0.hasPrefix("on:") }) else { return [] }
            let inline = lines[start].dropFirst(3).trimmingCharacters(in: .whitespaces)
            if !inline.isEmpty {
                return Set(
                    inline.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",")
                        .map { $0.trimmingCharacters(in: .whitespaces) })
            }
            var events: Set<String> = []
            for line in lines[(start + 1)...] {
                if !line.hasPrefix(" ") && !line.isEmpty { break }
                if line.hasPrefix("  ") && !line.hasPrefix("   ") && line.hasSuffix(":") {
                    events.insert(String(line.dropFirst(2).dropLast()))
                }
            }
            return events
        }

        /// Whether this file runs the gate or calls the workflow that does.
        var judges: Bool {
            text.range(of: #"squad["']?\s+gate"#, options: .regularExpression) != nil
                || text.contains("code-owner-gate.yml")
        }
    }

    static func workflows() throws -> [Workflow] {
        let folder = TestServer.repositoryRoot.appendingPathComponent(".github/workflows")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }
            .map {
                Workflow(name: $0, text: try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8))
            }
    }

    /// Events whose workflow file comes from the base or the default branch, never from the pull request.
    static let baseControlled: Set<String> = ["pull_request_target", "workflow_run", "workflow_call"]

    @Test func theGateRunsOnlyFromWorkflowFilesTheBaseControls() throws {
        let all = try Self.workflows()
        let judging = all.filter(\.judges)
        #expect(judging.count >= 3, "the gate, its pull_request_target caller and its workflow_run caller")
        for workflow in judging {
            #expect(
                workflow.triggers.isSubset(of: Self.baseControlled) && !workflow.triggers.isEmpty,
                "\(workflow.name) judges on \(workflow.triggers.sorted()): a pull request could rewrite it")
            #expect(workflow.text.contains("\ncache-mode: none\n"), "\(workflow.name) opens the cache to the gate")
        }
        let targets = all.filter { $0.triggers.contains("pull_request_target") }
        #expect(targets.contains { $0.judges }, "pull request events are gated through pull_request_target")
        let afterReview = all.filter { $0.triggers.contains("workflow_run") }
        #expect(afterReview.contains { $0.judges }, "review events are gated through workflow_run")
    }

    @Test func noHeadCodeRunsWhereTheGateHasItsToken() throws {
        for workflow in try Self.workflows() where workflow.judges {
            #expect(!workflow.text.contains("head.ref"), "\(workflow.name) names the head's branch")
            let checkouts = workflow.text.components(separatedBy: "actions/checkout").dropFirst()
            for checkout in checkouts {
                let options = checkout.split(separator: "\n").prefix(4).joined(separator: "\n")
                #expect(!options.contains("head"), "\(workflow.name) checks out the head: \(options)")
            }
        }
        let gate = try #require(try Self.workflows().first { $0.name == "code-owner-gate.yml" })
        #expect(gate.text.contains("refs/pull/$PR/head:refs/courier/head"), "the head arrives as git objects only")
        #expect(gate.text.contains("context=code-owner-gate"), "the verdict is a status on the head commit")
        #expect(gate.text.contains(#"[[ "$head" == "$HEAD_SHA" ]]"#), "a recorded number is checked against GitHub")
    }

    @Test func theReviewRecorderHoldsNoPermissionAndJudgesNothing() throws {
        let recorders = try Self.workflows().filter { $0.triggers.contains("pull_request_review") }
        #expect(!recorders.isEmpty)
        for recorder in recorders {
            #expect(recorder.text.contains("permissions: {}"), "\(recorder.name) runs the PR's own copy: no token")
            #expect(!recorder.judges && !recorder.text.contains("swift "), "\(recorder.name) must only record")
        }
    }
}

/// The PR workflow tests a change on one runner per group of affected test targets, from `squad affected`.
@Suite struct AffectedMatrixTests {
    static let script = TestServer.repositoryRoot.appendingPathComponent("Scripts/affected-matrix").path

    @Test func affectedTargetsBecomeCappedGroupsWithTheirFilters() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["MAX_JOBS"] = "2"
        let run = try await ProcessRunner.run(
            Self.script, [], environment: environment,
            stdin: #"{"affected": [], "tests": ["PaymentsTests", "OrderTests", "PromoTests"]}"#)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout
                == #"[{"name": "PaymentsTests PromoTests", "filter": "^(PaymentsTests|PromoTests)\\."}, {"name": "OrderTests", "filter": "^(OrderTests)\\."}]"#
                + "\n")
        let suites = try await ProcessRunner.run(
            Self.script, [], environment: environment,
            stdin:
                #"{"tests": ["PaymentsTests"], "suites": ["OrderTrackingTests.ScreenCompositionTests", "SquadTests.X"]}"#
        )
        #expect(
            suites.stdout
                == #"[{"name": "PaymentsTests SquadTests.X", "filter": "^(PaymentsTests)\\.|^(SquadTests\\.X)/"}, "#
                + #"{"name": "OrderTrackingTests.ScreenCompositionTests", "filter": "^(OrderTrackingTests\\.ScreenCompositionTests)/"}]"#
                + "\n", "\(suites.stderr)")
        let none = try await ProcessRunner.run(Self.script, [], stdin: #"{"tests": []}"#)
        #expect(none.stdout == "[]\n", "no affected test target: no test job")
    }

    /// Anything but squad affected's JSON fails the workflow, never an empty matrix that tests nothing.
    @Test(arguments: [
        "", "not json", #"{"tests": "CoreTests"}"#, #"{"tests": ["A|B"]}"#, "{}",
        #"{"tests": [], "suites": ["A|B.C"]}"#, #"{"tests": [], "suites": ["NoSuite"]}"#,
    ])
    func malformedInputFailsClosed(input: String) async throws {
        let run = try await ProcessRunner.run(Self.script, [], stdin: input)
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("affected-matrix: cannot read squad affected's JSON"))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test func thePullRequestWorkflowRunsOneTestJobPerGroup() throws {
        let pr = try #require(try WorkflowGateTests.workflows().first { $0.name == "pr.yml" }).text
        #expect(pr.contains("Scripts/affected-matrix < affected.json"))
        #expect(pr.contains("group: ${{ fromJSON(needs.checks.outputs.matrix) }}"))
        #expect(pr.contains("FILTER: ${{ matrix.group.filter }}"))
        #expect(pr.contains(#"Scripts/test-clean --filter "$FILTER""#))
    }
}
