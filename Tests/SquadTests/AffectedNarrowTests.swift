import CoreTesting
import Foundation
import SquadKit
import Testing

/// `squad affected` stays narrow in a real repository: a manifest change affects the targets whose declarations
/// changed (and what depends on them), files tests read run those tests (`.ci/readers`), a module's fixtures run
/// its own tests and the host's, and only a file nobody declared runs everything, saying why.
@Suite struct AffectedNarrowTests {
    static let targets = [
        #".target(name: "Core", path: "Modules/Core")"#,
        #".target(name: "Pay", dependencies: ["Core"], path: "Modules/Pay")"#,
        #".target(name: "Login", dependencies: ["Core"], path: "Modules/Login")"#,
        #".target(name: "Profile", dependencies: ["Login"], path: "Modules/Profile")"#,
        #".target(name: "HostKit", dependencies: ["Pay", "Login", "Profile"], path: "Apps/Host/Kit")"#,
        #".testTarget(name: "CoreTests", dependencies: ["Core"], path: "Tests/CoreTests")"#,
        #".testTarget(name: "PayTests", dependencies: ["Pay"], path: "Tests/PayTests")"#,
        #".testTarget(name: "LoginTests", dependencies: ["Login"], path: "Tests/LoginTests")"#,
        #".testTarget(name: "ProfileTests", dependencies: ["Profile"], path: "Tests/ProfileTests")"#,
        #".testTarget(name: "HostTests", dependencies: ["HostKit"], path: "Tests/HostTests")"#,
        #".testTarget(name: "ToolTests", dependencies: ["Core"], path: "Tests/ToolTests")"#,
    ]

    static func manifest(_ targets: [String], comment: String = "", platforms: String = "") -> String {
        "// swift-tools-version: 6.0\nimport PackageDescription\n\(comment)let package = Package(name: \"P\",\(platforms)"
            + " targets: [\n" + targets.map { "    \($0),\n" }.joined() + "])\n"
    }

    /// A repository on branch `pr` forked from `main`, which holds the package above and its readers table.
    func repository() async throws -> GitRepository {
        let repo = try await GitRepository()
        try repo.write("Package.swift", Self.manifest(Self.targets))
        try repo.write(
            ".ci/readers",
            "# who reads what\nCODEOWNERS\tToolTests HostTests\n.github/teams.json\tToolTests\n"
                + "Apps/Host/Kit/Fixtures/\town\nModules/*/Fixtures/\town HostTests\n")
        try repo.write("CODEOWNERS", "* @org/platform\n")
        try repo.write(".github/teams.json", "{}\n")
        try repo.write("Apps/Host/Kit/Fixtures/api/screens/checkout.json", "{}\n")
        try repo.write("Modules/Login/Fixtures/carts/C1/login.json", "{}\n")
        try await repo.commit("base")
        try await repo.git("checkout", "-q", "-b", "pr")
        return repo
    }

    /// The change's affected test targets and the text answer.
    func affected(_ repo: GitRepository) async throws -> (tests: [String], text: String) {
        let json = await repo.squad(["affected", "--base", "main", "--format", "json"])
        #expect(json.status == 0, "\(json.errors)")
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        return (object?["tests"] as? [String] ?? [], (await repo.squad(["affected", "--base", "main"])).output)
    }

    @Test func ownersAndTeamsRunTheTestsThatReadThem() async throws {
        let repo = try await repository()
        try repo.write("CODEOWNERS", "* @org/platform\n/Modules/Pay/ @org/pay\n")
        try repo.write(".github/teams.json", #"{"@org/pay": ["paula"]}"# + "\n")
        try await repo.commit("owners")
        let (tests, text) = try await affected(repo)
        #expect(tests == ["HostTests", "ToolTests"], "\(text)")
        #expect(text.contains("  HostTests: reads CODEOWNERS (.ci/readers: CODEOWNERS)\n"), "\(text)")
    }

    @Test func aScreenDefinitionRunsTheHostsTests() async throws {
        let repo = try await repository()
        try repo.write("Apps/Host/Kit/Fixtures/api/screens/checkout.json", #"{"components": ["tip"]}"# + "\n")
        try await repo.commit("screen")
        #expect(try await affected(repo).tests == ["HostTests"])
    }

    /// A fixture is read, not compiled: Login's runs Login's tests and the host's, not Profile's (which depends
    /// on Login's code).
    @Test func aModulesFixtureRunsItsTestsAndTheHosts() async throws {
        let repo = try await repository()
        try repo.write("Modules/Login/Fixtures/carts/C1/login.json", #"{"user": "new"}"# + "\n")
        try await repo.commit("fixture")
        #expect(try await affected(repo).tests == ["HostTests", "LoginTests"])
    }

    /// A new squad's lines and a comment: the new target, its tests and the host that lists it; nothing else.
    @Test func aNewTargetAffectsItselfAndWhatDependsOnIt() async throws {
        let repo = try await repository()
        var targets = Self.targets.map {
            $0.replacingOccurrences(of: #"["Pay", "Login", "Profile"]"#, with: #"["Pay", "Login", "Profile", "Tip"]"#)
        }
        targets += [
            #".target(name: "Tip", dependencies: ["Core"], path: "Modules/Tip")"#,
            #".testTarget(name: "TipTests", dependencies: ["Tip"], path: "Tests/TipTests")"#,
        ]
        try repo.write("Package.swift", Self.manifest(targets, comment: "// The tip squad joins.\n"))
        try repo.write("Modules/Tip/Tip.swift", "public let tip = 1\n")
        try await repo.commit("tip")
        let (tests, text) = try await affected(repo)
        #expect(tests == ["HostTests", "TipTests"], "\(text)")
        #expect(text.contains("  TipTests: new in Package.swift\n"), "\(text)")
        #expect(text.contains("  HostKit: its declaration in Package.swift changed\n"), "\(text)")
    }

    @Test func aCommentInTheManifestAffectsNothing() async throws {
        let repo = try await repository()
        try repo.write("Package.swift", Self.manifest(Self.targets, comment: "// Only words.\n"))
        try await repo.commit("comment")
        let (tests, text) = try await affected(repo)
        #expect(tests.isEmpty && text.hasSuffix("nothing to test\n"), "\(text)")
    }

    /// A changed declaration (an exclude) affects that target and its dependents, as an edit of its code would.
    @Test func aChangedDeclarationAffectsItsTargetAndDependents() async throws {
        let repo = try await repository()
        let targets = Self.targets.map {
            $0.replacingOccurrences(
                of: #"path: "Modules/Login")"#, with: #"path: "Modules/Login", exclude: ["Fixtures"])"#)
        }
        try repo.write("Package.swift", Self.manifest(targets))
        try await repo.commit("exclude")
        #expect(try await affected(repo).tests == ["HostTests", "LoginTests", "ProfileTests"])
    }

    @Test func packageWideSettingsAffectEverything() async throws {
        let repo = try await repository()
        try repo.write("Package.swift", Self.manifest(Self.targets, platforms: " platforms: [.macOS(.v15)],"))
        try await repo.commit("platforms")
        let (tests, text) = try await affected(repo)
        #expect(tests.count == 6, "\(text)")
        #expect(text.contains("why: Package.swift's package-wide settings changed, which affects every target\n"))
    }

    @Test func aFileNobodyDeclaredRunsEverythingAndSaysWhy() async throws {
        let repo = try await repository()
        try repo.write("tools/lint.yml", "rules: []\n")
        try await repo.commit("unknown")
        let (tests, text) = try await affected(repo)
        #expect(tests.count == 6, "\(text)")
        #expect(
            text.contains(
                "why: tools/lint.yml changed, which no target holds and .ci/readers does not list, so every target is "
                    + "affected (fail closed); name the tests that read it in .ci/readers\n"), "\(text)")
    }

    /// The project's own table names real test targets, and answers the issue's case: CODEOWNERS and teams.json
    /// alone run the suites that read them, not "nothing to test".
    @Test func theProjectsReadersNameRealTestsAndRunThem() async throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let table = try String(contentsOf: root.appendingPathComponent(".ci/readers"), encoding: .utf8)
        for line in Readers(text: table).lines {
            for name in line.tests where name != Readers.own {
                // A suite (Target.Suite) is declared in one of its target's sources.
                let (target, suite) = (String(name.prefix { $0 != "." }), name.split(separator: ".").dropFirst().first)
                let folder = root.appendingPathComponent("Tests/\(target)")
                #expect(
                    FileManager.default.fileExists(atPath: folder.path),
                    "\(line.pattern) names \(name), which is no test target")
                guard let suite else { continue }
                let sources = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
                    .filter { $0.hasSuffix(".swift") }
                let declared = sources.contains { file in
                    let text = (try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)) ?? ""
                    return ReadersCoverageTests.suites(in: text).contains(String(suite))
                }
                #expect(declared, "\(line.pattern) names \(name), which is no suite of \(target)")
            }
        }
        let repository = root
        let result = await OwnThread.run { () -> String in
            var (output, errors) = ("", "")
            _ = SquadApp.run(
                ["affected", "--files", "-", "--format", "json"], directory: repository,
                stdin: { Array("CODEOWNERS\n.github/teams.json\n".utf8) }, output: &output, errors: &errors)
            return output + errors
        }
        #expect(result.contains(#""tests":["OrderTrackingTests","SquadTests"]"#), "\(result)")
        // A squad's golden runs the one suite that compares goldens, not the squad's own tests.
        let golden = await OwnThread.run { () -> String in
            var (output, errors) = ("", "")
            _ = SquadApp.run(
                ["affected", "--files", "-", "--format", "json"], directory: repository,
                stdin: { Array("Tests/LocationTests/.goldens/1234-eta.txt\n".utf8) }, output: &output, errors: &errors)
            return output + errors
        }
        #expect(golden.contains(#""suites":["OrderTrackingTests.ScreenCompositionTests"],"tests":[]"#), "\(golden)")
    }
}
