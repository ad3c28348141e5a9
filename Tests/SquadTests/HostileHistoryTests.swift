import Foundation
import SquadKit
import Testing

/// Local history rewrites that `--no-replace-objects` does not turn off: a grafts file must never make a change
/// read as empty.
@Suite struct HostileHistoryTests {
    @Test func aGraftsFileCannotMakeTheBaseContainThePullRequest() async throws {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", "* @courier/platform\n/vendor/ @alice\n")
        try repo.write("vendor/lib.c", "int a;\n")
        try await repo.commit("base")
        try await repo.git("checkout", "-q", "-b", "pr")
        try repo.write("vendor/lib.c", "int evil;\n")
        try await repo.commit("the change")
        try await repo.git("checkout", "-q", "main")
        try repo.write("docs/guide.md")
        try await repo.commit("the base moves on")
        // The base's tip is given the pull request as a second parent: the fork point would be the head itself.
        let tip = try await repo.git("rev-parse", "main", "main~1", "pr")
        let graft = tip.split(separator: "\n").joined(separator: " ") + "\n"
        try repo.write(".git/info/grafts", graft)
        let gate = await repo.squad(["gate", "--base", "main", "--head", "pr"])
        #expect(gate.status == 1, "\(gate)")
        #expect(gate.output.contains("vendor/lib.c\tneeds one of @alice"), "\(gate.output)")
        #expect(!gate.errors.contains("graft"), "no hint about the grafts file reaches the person: \(gate.errors)")
    }
}
