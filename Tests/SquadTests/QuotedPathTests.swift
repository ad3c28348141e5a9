import CoreTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Names git prints quoted (`git ls-files` and `git diff --name-only` quote every name holding a byte outside
/// printable ASCII): read back as the files they name, and printed the way git prints them, on a real repository.
@Suite struct QuotedPathTests {
    static let codeowners = "* @org/everyone\n/docs/ @org/docs\n"
    /// `docs/a\377b.md`: a name that is not UTF-8, as git allows.
    static let notUTF8: [UInt8] = Array("docs/a".utf8) + [0xFF] + Array("b.md".utf8)

    func repository() async throws -> GitRepository {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", Self.codeowners)
        try repo.write("docs/caf\u{E9}.md")
        try repo.write("docs/plain.md")
        let path = Array(repo.root.path.utf8) + [UInt8(ascii: "/")] + Self.notUTF8 + [0]
        let descriptor = path.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        try #require(descriptor >= 0)
        close(descriptor)
        try await repo.commit("base")
        return repo
    }

    static let answers = """
        CODEOWNERS\t@org/everyone
        "docs/a\\377b.md"\t@org/docs
        "docs/caf\\303\\251.md"\t@org/docs
        docs/plain.md\t@org/docs

        """

    @Test func gitLsFilesLinesAreTheFilesTheyName() async throws {
        let repo = try await repository()
        let listed = try await repo.git("ls-files")
        #expect(listed.contains("\"docs/caf\\303\\251.md\"\n"))
        let lines = await repo.squad(["owners", "-"], stdin: listed)
        #expect(lines.status == 0, "\(lines.errors)")
        #expect(lines.output == Self.answers)
        // NUL-separated names are taken byte for byte, the one that is not UTF-8 too.
        let names = [
            Array("CODEOWNERS".utf8), Self.notUTF8, Array("docs/caf\u{E9}.md".utf8), Array("docs/plain.md".utf8),
        ]
        let nul = await repo.squad(["owners", "-", "-z"], stdinBytes: Array(names.joined(separator: [0])))
        #expect(nul.output == Self.answers, "\(nul.errors)")
        // A folder stands for its files, git's names kept.
        let folder = await repo.squad(["owners", "docs"])
        #expect(folder.output == Self.answers.split(separator: "\n").dropFirst().map { $0 + "\n" }.joined())
        let owned = await repo.squad(["owners", "--owner", "@org/docs"])
        #expect(owned.output == "\"docs/a\\377b.md\"\n\"docs/caf\\303\\251.md\"\ndocs/plain.md\n")
    }

    @Test func jsonCarriesTheNameGitQuotesWhenItIsNotUnicode() async throws {
        let repo = try await repository()
        let json = await repo.squad(["owners", "-", "--format", "json"], stdin: try await repo.git("ls-files"))
        #expect(json.status == 0, "\(json.errors)")
        #expect(json.output.contains(#""path":"docs/a\#u{FFFD}b.md","quotedPath":"\"docs/a\\377b.md\""}"#))
        #expect(json.output.contains(#""owners":["@org/docs"],"path":"docs/caf\#u{E9}.md"}"#))
        #expect(json.output.components(separatedBy: "quotedPath").count == 2)
    }

    @Test func aBadlyQuotedLineIsRefusedWithItsNumber() async throws {
        let repo = try await repository()
        for bad in ["\"docs/x\\q.md\"", "\"docs/x.md", "\"docs/x.md\"trailing", "\"docs/\\000.md\""] {
            let result = await repo.squad(["owners", "-"], stdin: "docs/plain.md\n\(bad)\n")
            #expect(result.status == 2, "\(bad)")
            #expect(result.output.isEmpty)
            #expect(
                result.errors
                    == "squad: standard input line 2 starts with '\"' but is not a name quoted as git quotes them; "
                    + "list the paths as git ls-files prints them, or NUL-separated with -z\n")
        }
    }

    @Test func anArgumentThatIsNotUTF8IsRefusedNotRepaired() async throws {
        let repo = try await repository()
        // The shell hands over the name's bytes; Swift's CommandLine.arguments would have made it "a\u{FFFD}b.md".
        let squad = ProcessRunner.productsDirectory.appendingPathComponent("squad").path
        let run = try await ProcessRunner.run(
            "bash", ["-c", "'\(squad)' owners docs/plain.md \"$(printf 'docs/a\\377b.md')\""], directory: repo.root)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr.hasPrefix(
                "squad: argument 3, \"docs/a\\377b.md\", is not UTF-8; give such a name on stdin as git lists it: "
                    + "git ls-files -z | squad owners - -z"), "\(run.stderr)")
        let named = try await ProcessRunner.run(squad, ["owners", "docs/caf\u{E9}.md"], directory: repo.root)
        #expect(named.stdout == "\"docs/caf\\303\\251.md\"\t@org/docs\n", "\(named.stderr)")
    }

    @Test func theGateReadsGitDiffNamesAsTheFilesTheyName() async throws {
        let repo = try await repository()
        // `git diff --name-only main...pr` prints the changed name quoted: read as it stands it would be owned by
        // `*` alone, and @org/everyone's approval would let the docs change through.
        let changed = "\"docs/caf\\303\\251.md\"\n"
        let gate = await repo.squad(
            ["gate", "--base", "main", "--files", "-", "--approved-by", "@org/everyone"], stdin: changed)
        #expect(gate.status == 1, "\(gate.output)\(gate.errors)")
        #expect(gate.output.contains("\"docs/caf\\303\\251.md\"\tneeds one of @org/docs"))
        let list = repo.root.appendingPathComponent("changed.txt")
        try Data("\"docs/caf\\303\\251.md\n".utf8).write(to: list)
        let bad = await repo.squad(["gate", "--base", "main", "--files", list.path])
        #expect(bad.status == 2)
        #expect(bad.errors.contains("--files '\(list.path)' line 1 starts with '\"' but is not a name quoted as git"))
    }
}
