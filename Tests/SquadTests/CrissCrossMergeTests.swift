import Foundation
import SquadKit
import Testing

/// A pull request and its base with several best common ancestors (criss-cross merges): the change is what the
/// head differs in from any of them, so a merge on the head that undoes a change the base made is seen whichever
/// fork point git names first.
@Suite struct CrissCrossMergeTests {
    /// Two branches from one root, each changing one owner's file (`x` changes `carol/h.txt`, `y` changes
    /// `alice/g.txt`), merged into each other both ways: the base (`main`) keeps both changes, the pull request
    /// (`pr`) undoes both in its merge. Merging `pr` into `main` changes both files back, and `x` and `y` are both
    /// best common ancestors: from either alone one of the two files looks unchanged. The package's targets `A`
    /// and `C` are the two folders.
    func crissCross() async throws -> GitRepository {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", "* @courier/platform\n/alice/ @alice\n/carol/ @carol\n")
        try repo.write("alice/g.txt", "0\n")
        try repo.write("carol/h.txt", "0\n")
        try repo.write(
            "Package.swift",
            "// swift-tools-version: 6.0\nimport PackageDescription\nlet package = Package(name: \"P\", targets: "
                + "[.target(name: \"A\", path: \"alice\"), .target(name: \"C\", path: \"carol\")])\n")
        try await repo.commit("root")
        try await repo.git("checkout", "-q", "-b", "x")
        try repo.write("carol/h.txt", "3\n")
        try await repo.commit("x")
        try await repo.git("checkout", "-q", "-b", "y", "main")
        try repo.write("alice/g.txt", "2\n")
        try await repo.commit("y")
        try await repo.git("checkout", "-q", "-b", "pr", "x")
        try await repo.git("merge", "-q", "--no-commit", "y")
        try repo.write("alice/g.txt", "0\n")
        try repo.write("carol/h.txt", "0\n")
        try await repo.commit("merge y, undoing both changes")
        try await repo.git("checkout", "-q", "main")
        try await repo.git("merge", "-q", "--ff-only", "y")
        try await repo.git("merge", "-q", "--no-edit", "x")
        return repo
    }

    @Test func everyFilesOwnersAreAskedWhateverForkPointGitNames() async throws {
        let repo = try await crissCross()
        let bases = try await repo.git("merge-base", "--all", "main", "pr")
        #expect(bases.split(separator: "\n").count == 2, "the history must have two merge bases: \(bases)")
        let gate = await repo.squad(["gate", "--base", "main", "--head", "pr"])
        #expect(gate.status == 1, "\(gate)")
        #expect(gate.output.contains("alice/g.txt\tneeds one of @alice"), "\(gate.output)")
        #expect(gate.output.contains("carol/h.txt\tneeds one of @carol"), "\(gate.output)")
        let one = await repo.squad(["gate", "--base", "main", "--head", "pr", "--approved-by", "@alice"])
        #expect(one.status == 1, "\(one)")
        let both = await repo.squad([
            "gate", "--base", "main", "--head", "pr", "--approved-by", "@alice", "--approved-by", "@carol",
        ])
        #expect(both.status == 0, "\(both)")
    }

    @Test func affectedSeesTheFilesEveryForkPointShows() async throws {
        let repo = try await crissCross()
        let affected = await repo.squad(["affected", "--base", "main", "--head", "pr"])
        #expect(affected.status == 0, "\(affected)")
        #expect(affected.output.contains("A: alice/g.txt changed"), "\(affected.output)")
        #expect(affected.output.contains("C: carol/h.txt changed"), "\(affected.output)")
    }
}
