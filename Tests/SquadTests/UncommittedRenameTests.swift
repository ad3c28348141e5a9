import Foundation
import SquadKit
import Testing

/// Uncommitted changes are named as git holds them: a staged rename (`git mv`) is its old and its new path, as
/// the gate reads a committed one. Its old path came out without its first three bytes (`s/old-name.md`), in the
/// gate's warning and in the paths `squad check` narrows its tests to.
@Suite struct UncommittedRenameTests {
    @Test func aStagedRenameIsItsOldAndNewPaths() async throws {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", "* @bob\n/secure/ @alice\n")
        try repo.write("docs/old-name.md", "a text long enough to be found as a rename\n")
        try repo.write("secure/keys.txt")
        try await repo.commit("base")
        try await repo.git("mv", "docs/old-name.md", "secure/new-name.md")
        let gate = await repo.squad(["gate", "--base", "main"])
        #expect(
            gate.errors.contains(
                "warning: 2 uncommitted change(s) are not part of the gate (docs/old-name.md, secure/new-name.md)"),
            "\(gate.errors)")
    }
}
