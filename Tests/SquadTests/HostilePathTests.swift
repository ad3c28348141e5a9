import CodeOwnership
import Foundation
import SquadKit
import Testing

/// Paths built to slip past the gate: each was a bypass when paths were compared as Swift Characters or as
/// canonically equal strings. Git paths are bytes, and every check here runs on a real repository.
@Suite struct HostilePathTests {
    func repository(_ codeowners: String, files: [String]) async throws -> GitRepository {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", codeowners)
        for file in files { try repo.write(file) }
        try await repo.commit("base")
        try await repo.git("checkout", "-q", "-b", "pr")
        return repo
    }

    @Test func aCombiningMarkAfterASlashDoesNotHideTheFolder() async throws {
        let repo = try await repository("* @org/everyone\n/secure/ @org/sec\n", files: ["secure/a.txt"])
        let sneaky = "secure/\u{301}x.txt"
        try repo.write(sneaky)
        try await repo.commit("sneak")
        let gate = await repo.squad(["gate", "--base", "main", "--approved-by", "@org/everyone"])
        #expect(gate.status == 1, "\(gate.output)")
        #expect(gate.output.contains("needs one of @org/sec"))
        #expect(await repo.squad(["owners", sneaky]).output.hasSuffix("\t@org/sec\n"))
        let owners = CodeOwners(text: "* @org/everyone\n/secure/ @org/sec\n")
        #expect(owners.ownership(of: sneaky).owners == ["@org/sec"])
    }

    @Test func nfcAndNfdTwinsAreTwoFilesEachWithItsOwners() async throws {
        let nfc = "docs/caf\u{E9}.txt"
        let nfd = "docs/cafe\u{301}.txt"
        let repo = try await repository("* @org/everyone\n/\(nfc) @org/sec\n", files: [nfc])
        try repo.write(nfc, "edited\n")
        try repo.write(nfd, "twin\n")
        try await repo.commit("twins")
        let gate = await repo.squad(["gate", "--base", "main", "--approved-by", "@org/everyone"])
        #expect(gate.status == 1)
        // Both appear, quoted as git quotes non-ASCII bytes, so the reader sees two different names.
        #expect(gate.output.contains("\"docs/caf\\303\\251.txt\"\tneeds one of @org/sec"))
        #expect(gate.output.contains("\"docs/cafe\\314\\201.txt\"\tapproved by @org/everyone"))
        let both = await repo.squad([
            "gate", "--base", "main", "--approved-by", "@org/everyone", "--approved-by", "@org/sec",
        ])
        #expect(both.status == 0)
    }

    @Test func affectedSeesAModuleFileWhateverFollowsTheSlash() {
        let graph = PackageGraph(targets: [
            .init(name: "Payments", kind: "regular", path: "Modules/Payments", dependencies: []),
            .init(name: "PaymentsTests", kind: "test", path: "Tests/PaymentsTests", dependencies: ["Payments"]),
        ])
        #expect(Affected(graph: graph).analyse(["Modules/Payments/\u{301}x.swift"]).tests == ["PaymentsTests"])
    }

    @Test func fileNamesCannotFakeGateLines() async throws {
        let repo = try await repository("* @org/everyone\n", files: ["a.txt"])
        let fake = "x\nmay merge: 1 changed path(s)\t\u{1B}[2J"
        try repo.write(fake)
        try await repo.commit("fake")
        let gate = await repo.squad(["gate", "--base", "main"])
        #expect(gate.status == 1)
        #expect(gate.output.contains("\"x\\nmay merge: 1 changed path(s)\\t\\033[2J\"\tneeds one of @org/everyone"))
        #expect(!gate.output.split(separator: "\n").contains { $0.hasPrefix("may merge") })
    }

    @Test func aRefThatLooksLikeAnOptionIsRefused() async throws {
        let repo = try await repository("* @org/everyone\n", files: ["a.txt"])
        let output = repo.root.appendingPathComponent("written-by-git").path
        let result = await repo.squad(["gate", "--base", "main", "--head", "--output=\(output)"])
        #expect(result.status == 2)
        #expect(result.errors.contains("is not a revision"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let files = await repo.squad(
            ["gate", "--base", "main", "--files", "-", "--head", "--output=\(output)"], stdin: "a.txt\n")
        #expect(files.status == 2)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aSymlinkToAFolderAndASubmoduleAreAnsweredAsPaths() async throws {
        let repo = try await repository("* @org/everyone\n/etclink @org/sec\n", files: ["real/a.txt"])
        try FileManager.default.createSymbolicLink(
            atPath: repo.root.appendingPathComponent("etclink").path, withDestinationPath: "real")
        try await repo.commit("link")
        let result = await repo.squad(["owners", "-"], stdin: try await repo.git("ls-files"))
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("etclink\t@org/sec\n"))
        // A submodule: a folder on disk, one gitlink path in the index.
        let inner = try await GitRepository()
        try inner.write("x.txt")
        try await inner.commit("inner")
        try await repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", inner.root.path, "vendor/sub")
        try await repo.commit("submodule")
        let withSubmodule = await repo.squad(["owners", "-"], stdin: try await repo.git("ls-files"))
        #expect(withSubmodule.status == 0, "\(withSubmodule.errors)")
        #expect(withSubmodule.output.contains("vendor/sub\t@org/everyone\n"))
    }

    @Test func anEmptyPathIsAUsageError() async throws {
        let repo = try await repository("* @org/everyone\n", files: ["a.txt"])
        let result = await repo.squad(["owners", ""])
        #expect(result.status == 64)
        #expect(result.errors.contains("'' is not a path"))
    }

    @Test func aCodeOwnersFolderIsNoRules() async throws {
        let repo = try await repository("* @org/everyone\n", files: [".github/CODEOWNERS/x"])
        try repo.write("a.txt", "changed\n")
        try await repo.commit("change")
        // .github/CODEOWNERS is a folder: GitHub uses the root file, and so does the gate.
        let gate = await repo.squad(["gate", "--base", "main", "--approved-by", "@org/everyone"])
        #expect(gate.status == 0, "\(gate.output)\(gate.errors)")
        let owners = await repo.squad(["owners", "a.txt"])
        #expect(owners.output == "a.txt\t@org/everyone\n", "\(owners.errors)")
    }
}
