import Foundation
import SquadKit
import Testing

/// The gate reads a change with options no repository or user configuration can turn off: a submodule bump the
/// base's `.gitmodules` says to ignore, `diff.ignoreSubmodules`, `diff.relative`, rename settings and replace refs
/// must never hide a changed path from its owners.
@Suite struct HostileGitConfigTests {
    static let codeowners = """
        *          @courier/platform
        /vendor/   @alice
        /docs/     @docs
        """

    /// A base commit holding `vendor/sub` as a submodule marked `ignore = all`, and a pull request moving it.
    func submoduleBump(at path: String = "vendor/sub") async throws -> GitRepository {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", Self.codeowners)
        try repo.write(".gitmodules", "[submodule \"sub\"]\n\tpath = \(path)\n\turl = ../sub\n\tignore = all\n")
        try repo.write("docs/guide.md")
        try repo.write(
            "Package.swift",
            "// swift-tools-version: 6.0\nimport PackageDescription\n"
                + "let package = Package(name: \"P\", targets: [.target(name: \"A\", path: \"Modules/A\")])\n")
        try repo.write("Modules/A/A.swift", "public let a = 1\n")
        try await repo.git("add", "-A")
        try await repo.git(
            "update-index", "--add", "--cacheinfo", "160000,\(String(repeating: "a", count: 40)),\(path)")
        try await repo.git("commit", "-q", "-m", "base")
        try await repo.git("checkout", "-q", "-b", "pr")
        try await repo.git("update-index", "--cacheinfo", "160000,\(String(repeating: "b", count: 40)),\(path)")
        try await repo.git("commit", "-q", "-m", "bump the submodule")
        return repo
    }

    @Test func aSubmoduleBumpNeedsItsOwnersWhateverGitModulesSays() async throws {
        let repo = try await submoduleBump()
        let gate = await repo.squad(["gate", "--base", "main"])
        #expect(gate.status == 1)
        #expect(gate.output.contains("vendor/sub\tneeds one of @alice"))
        #expect(await repo.squad(["gate", "--base", "main", "--approved-by", "@alice"]).status == 0)
    }

    @Test func aSubmoduleBumpInsideAModuleAffectsIt() async throws {
        let repo = try await submoduleBump(at: "Modules/A/sub")
        let affected = await repo.squad(["affected", "--base", "main"])
        #expect(affected.status == 0)
        #expect(affected.output.contains("A: Modules/A/sub changed"), "\(affected)")
    }

    @Test(arguments: [
        ["diff.ignoreSubmodules", "all"],
        ["submodule.sub.ignore", "all"],
        ["diff.renames", "false"],
        ["diff.external", "false"],
        ["diff.noprefix", "true"],
        ["core.quotePath", "false"],
    ])
    func noConfigurationHidesTheBump(setting: [String]) async throws {
        let repo = try await submoduleBump()
        try await repo.git("config", setting[0], setting[1])
        let gate = await repo.squad(["gate", "--base", "main"])
        #expect(gate.status == 1, "\(setting)")
        #expect(gate.output.contains("vendor/sub\tneeds one of @alice"), "\(setting): \(gate.output)")
    }

    @Test func aRelativeDiffSettingDoesNotNarrowTheChangeToTheFolderYouAreIn() async throws {
        let repo = try await submoduleBump()
        try await repo.git("config", "diff.relative", "true")
        let gate = await repo.squad(["gate", "--base", "main", "--approved-by", "@docs"], in: "docs")
        #expect(gate.status == 1)
        #expect(gate.output.contains("vendor/sub\tneeds one of @alice"))
    }

    @Test func aReplaceRefCannotSwapThePullRequestForTheBase() async throws {
        let repo = try await submoduleBump()
        try await repo.git("replace", "pr", "main")
        let gate = await repo.squad(["gate", "--base", "main"])
        #expect(gate.status == 1)
        #expect(gate.output.contains("vendor/sub\tneeds one of @alice"))
    }

    @Test func aRenameNeedsBothOwnersEvenWithRenameDetectionConfigured() async throws {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", Self.codeowners)
        try repo.write("docs/guide.md", "a long enough text to be found as a rename\n")
        try repo.write("vendor/README.md")
        try await repo.commit("base")
        try await repo.git("checkout", "-q", "-b", "pr")
        try await repo.git("config", "diff.renames", "copies")
        try await repo.git("mv", "docs/guide.md", "vendor/guide.md")
        try await repo.commit("move")
        let gate = await repo.squad(["gate", "--base", "main", "--approved-by", "@alice"])
        #expect(gate.status == 1)
        #expect(gate.output.contains("docs/guide.md\tneeds one of @docs"))
    }

    @Test func branchesWithNoCommonHistoryAreAnErrorNotAnEmptyChange() async throws {
        let repo = try await submoduleBump()
        try await repo.git("checkout", "-q", "--orphan", "other")
        try await repo.commit("unrelated")
        let gate = await repo.squad(["gate", "--base", "main"])
        #expect(gate.status == 2)
        #expect(gate.errors.contains("share no history"))
    }
}
