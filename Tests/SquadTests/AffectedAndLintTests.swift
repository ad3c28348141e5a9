import CodeOwnership
import Foundation
import SquadKit
import Testing

@Suite struct AffectedTests {
    let graph = PackageGraph(targets: [
        .init(name: "Core", kind: "regular", path: "Modules/Core", dependencies: []),
        .init(name: "Payments", kind: "regular", path: "Modules/Payments", dependencies: ["Core"]),
        .init(name: "Order", kind: "regular", path: "Modules/Order", dependencies: ["Core"]),
        .init(name: "HostKit", kind: "regular", path: "Apps/Host/Kit", dependencies: ["Payments", "Order"]),
        .init(name: "CoreTests", kind: "test", path: "Tests/CoreTests", dependencies: ["Core"]),
        .init(name: "PaymentsTests", kind: "test", path: "Tests/PaymentsTests", dependencies: ["Payments"]),
        .init(name: "OrderTests", kind: "test", path: "Tests/OrderTests", dependencies: ["Order"]),
        .init(name: "HostTests", kind: "test", path: "Tests/HostTests", dependencies: ["HostKit"]),
    ])

    @Test func aModuleChangeRunsItsTestsAndItsDependents() {
        let result = Affected(graph: graph).analyse(["Modules/Payments/Pay.swift"])
        #expect(result.changed == ["Payments"])
        #expect(result.tests == ["HostTests", "PaymentsTests"])
    }

    @Test func aCoreChangeRunsEverythingThatDependsOnIt() {
        #expect(
            Affected(graph: graph).analyse(["Modules/Core/X.swift"]).tests == [
                "CoreTests", "HostTests", "OrderTests", "PaymentsTests",
            ])
    }

    @Test func aTestOnlyChangeRunsJustThatTest() {
        #expect(Affected(graph: graph).analyse(["Tests/OrderTests/T.swift"]).tests == ["OrderTests"])
    }

    static let uncompared =
        "Package.swift changed and there are not two manifests to compare, which affects every target"

    @Test(arguments: ["Package.swift", ".ci/run", "Scripts/anything"])
    func infrastructureChangesAffectEverything(path: String) {
        #expect(Affected(graph: graph).analyse([path]).tests.count == 4)
    }

    @Test func docsNoTestReadsAffectNothing() {
        let readers = Readers(text: "# docs\nREADME.md\t-\n")
        #expect(Affected(graph: graph, readers: readers).analyse(["README.md"]).tests.isEmpty)
    }

    /// A file no target holds and `.ci/readers` does not name may be read by any test: every one runs, and the
    /// answer says why once.
    @Test func anUnknownFileAffectsEverythingAndSaysWhy() {
        let result = Affected(graph: graph).explain(["docs/new.txt"])
        #expect(result.tests.count == 4)
        #expect(
            result.everything
                == "docs/new.txt changed, which no target holds and .ci/readers does not list, so every target is "
                + "affected (fail closed); name the tests that read it in .ci/readers")
    }

    /// A real repository on branch `pr`, whose base commit on `main` holds a manifest of `targets` and `files`.
    func packageRepository(targets: String, files: [String: String]) async throws -> GitRepository {
        let repo = try await GitRepository()
        let header = "// swift-tools-version: 6.0\nimport PackageDescription\n"
        try repo.write("Package.swift", header + "let package = Package(name: \"P\", targets: [\(targets)])\n")
        for (path, text) in files { try repo.write(path, text) }
        try await repo.commit("base")
        try await repo.git("checkout", "-q", "-b", "pr")
        return repo
    }

    @Test func againstARealRepositoryAndTheRealManifest() async throws {
        let repo = try await packageRepository(
            targets:
                #".target(name: "A", path: "Modules/A"), .target(name: "B", dependencies: ["A"], path: "Modules/B"), .testTarget(name: "BTests", dependencies: ["B"], path: "Tests/BTests")"#,
            files: [
                "Modules/A/A.swift": "public let a = 1\n", "Modules/B/B.swift": "import A\n",
                "Tests/BTests/T.swift": "",
            ])
        try repo.write("Modules/A/A.swift", "public let a = 2\n")
        try await repo.commit("change A")
        let result = await repo.squad(["affected", "--base", "main", "--format", "json"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(
            result.output
                == #"{"affected":["A","B","BTests"],"changed":["A"],"command":"swift test --filter '^(BTests)\\.'","everything":null,"suites":[],"tests":["BTests"],"why":{"A":"Modules/A/A.swift changed","B":"depends on A","BTests":"depends on B, which is affected"}}"#
                + "\n")
        let text = await repo.squad(["affected", "--base", "main"])
        #expect(text.output.contains("  BTests: depends on B, which is affected\n"))
        #expect(text.output.hasSuffix("run: swift test --filter '^(BTests)\\.'\n"))
        // A manifest change with no base manifest to compare with affects everything, and says so once.
        let all = await repo.squad(["affected", "--files", "-"], stdin: "Package.swift\n")
        #expect(all.output.contains("why: \(Self.uncompared)\n"), "\(all.output)")
        #expect(all.output.components(separatedBy: "which affects every target").count == 2, "said once")
    }

    /// A readers line naming a suite runs that suite alone (its filter ends at the suite, `/`), unless its whole
    /// target runs anyway; the readers of a file the manifest's text is are run on a manifest change too.
    @Test func aSuiteTheReadersNameRunsAloneUnlessItsTargetRuns() throws {
        let graph = PackageGraph(targets: [
            .init(name: "A", kind: "regular", path: "Modules/A", dependencies: []),
            .init(name: "ATests", kind: "test", path: "Tests/ATests", dependencies: ["A"]),
            .init(name: "HostTests", kind: "test", path: "Tests/HostTests", dependencies: []),
        ])
        let readers = Readers(
            text: "Tests/*/.goldens/\tHostTests.GoldenTests\nModules/A/Data/\tHostTests.DataTests ATests\n")
        let golden = Affected(graph: graph, readers: readers).explain(["Tests/ATests/.goldens/1-a.txt"])
        #expect(golden.tests.isEmpty && golden.suites == ["HostTests.GoldenTests"])
        #expect(golden.command == "swift test --filter '^(HostTests\\.GoldenTests)/'")
        let both = Affected(graph: graph, readers: readers).explain(["Modules/A/Data/x.json", "Modules/A/A.swift"])
        #expect(both.tests == ["ATests"] && both.suites == ["HostTests.DataTests"])
        #expect(both.filter == "^(ATests)\\.|^(HostTests\\.DataTests)/")
        let whole = Affected(graph: graph, readers: readers).explain([
            "Tests/HostTests/T.swift", "Tests/ATests/.goldens/x",
        ])
        #expect(whole.tests == ["HostTests"] && whole.suites.isEmpty, "the whole target runs the suite already")
    }

    /// The manifest renamed away (or broken) in the change: the answer comes from the revisions compared (the
    /// base's manifest knows the targets), every target is affected, and SwiftPM's error never shows.
    @Test func aMovedManifestAffectsEverythingFromTheRevisions() async throws {
        let repo = try await packageRepository(
            targets:
                #".target(name: "A", path: "Modules/A"), .testTarget(name: "ATests", dependencies: ["A"], path: "Tests/ATests")"#,
            files: ["Modules/A/A.swift": "public let a = 1\n", "Tests/ATests/T.swift": ""])
        try await repo.git("mv", "Package.swift", "Package2.swift")
        try await repo.commit("rename the manifest")
        let result = await repo.squad(["affected", "--base", "main"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.isEmpty && !result.output.contains("error:"), "no SwiftPM error: \(result.errors)")
        #expect(result.output.contains("test targets: ATests\n"))
        #expect(result.output.contains("why: \(Self.uncompared)\n"), "\(result.output)")
        try repo.write("Package.swift", "this is not swift")
        let dirty = await repo.squad(["affected", "--base", "main", "--format", "json"])
        #expect(dirty.status == 0 && dirty.output.contains(#""tests":["ATests"]"#), "the working tree is not asked")
    }
}

@Suite struct DependencyRuleTests {
    let rule = DependencyRule(
        graph: PackageGraph(targets: [
            .init(name: "Core", kind: "regular", path: "Modules/Core", dependencies: []),
            .init(name: "Payments", kind: "regular", path: "Modules/Payments", dependencies: ["Core", "Order"]),
            .init(name: "Order", kind: "regular", path: "Modules/Order", dependencies: ["Core"]),
            .init(name: "Login", kind: "regular", path: "Modules/Login", dependencies: ["Core"]),
            .init(name: "Profile", kind: "regular", path: "Modules/Profile", dependencies: ["Core", "Login"]),
            .init(name: "HostKit", kind: "regular", path: "Apps/Host/Kit", dependencies: ["Payments", "CoreHTTP"]),
            .init(name: "CoreHTTP", kind: "regular", path: "Modules/CoreHTTP", dependencies: ["Core", "CurlBinding"]),
            .init(name: "CurlBinding", kind: "regular", path: "Modules/CurlBinding", dependencies: []),
            .init(name: "Currency", kind: "regular", path: "Modules/Currency", dependencies: []),
            .init(name: "TerminalUI", kind: "regular", path: "Modules/TerminalUI", dependencies: ["Core"]),
        ]),
        kinds: ManifestKinds(
            kernel: "Core", modules: ["Core", "Payments", "Order", "Login", "Profile"],
            pluginPoints: ["Login", "Tabs"],
            sharedLibraries: ["Currency", "TerminalUI"],
            adapters: ["CoreHTTP": ["Core", "CurlBinding"], "CurlBinding": []], testSupport: ["CoreTesting"]))

    /// The kinds as the project's own manifest declares them: every module target has exactly one.
    @Test func theKindsAreReadFromTheManifestsTables() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let kinds = try ManifestKinds.read(
            String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8))
        #expect(kinds.kernel == "Core")
        #expect(kinds.pluginPoints == ["Login", "Tabs"])
        #expect(
            kinds.adapters == [
                "CoreHTTP": ["Core", "CurlBinding"], "CurlBinding": [],
                "Confinement": ["ComponentWorkers", "HostIO", "SandboxBinding"], "SandboxBinding": [],
            ])
        #expect(kinds.sharedLibraries.contains("ScreenRuntime") && !kinds.sharedLibraries.contains("CoreHTTP"))
        #expect(kinds.modules.contains("Payments") && kinds.testSupport == ["CoreTesting"])
        // Today's squads' interfaces, and any a new squad adds (squad new writes one): never an exact list.
        #expect(
            ["PaymentsInterface", "OrderInterface", "LocationInterface", "PromoInterface"].allSatisfy(
                kinds.interfaces.contains))
        #expect(
            kinds.interfaces.allSatisfy { $0.hasSuffix("Interface") && kinds.modules.contains(String($0.dropLast(9))) })
        #expect(throws: ManifestKinds.Unreadable.self) {
            try ManifestKinds.read("let modules: [(String)] = [(\"A\", [])]")
        }
    }

    @Test func aModuleTargetInNoTableOrTwoIsAFinding() {
        let graph = PackageGraph(targets: [
            .init(name: "Core", kind: "regular", path: "Modules/Core", dependencies: []),
            .init(name: "Stray", kind: "regular", path: "Modules/Stray", dependencies: ["Core"]),
        ])
        let kinds = ManifestKinds(
            kernel: "Core", modules: ["Core"], pluginPoints: [], sharedLibraries: [], adapters: [:], testSupport: [])
        #expect(
            DependencyRule(graph: graph, kinds: kinds).manifestViolations() == [
                "Package.swift: Stray is in 0 of the tables modules, interfaces, sharedLibraries, adapters "
                    + "(or systemBindings) and testSupport; put it in exactly one, so its kind is known"
            ])
    }

    /// A squad's events live in its interface target: other squads depend on the interface, never the module, and
    /// an interface depends on Core and shared libraries only (so it never drags a squad's module in).
    @Test func squadsDependOnEachOthersInterfacesOnly() {
        let graph = PackageGraph(targets: [
            .init(name: "Core", kind: "regular", path: "Modules/Core", dependencies: []),
            .init(
                name: "Payments", kind: "regular", path: "Modules/Payments", dependencies: ["Core", "OrderInterface"]),
            .init(name: "Order", kind: "regular", path: "Modules/Order", dependencies: ["Core", "OrderInterface"]),
            .init(name: "OrderInterface", kind: "regular", path: "Modules/Order/Interface", dependencies: ["Core"]),
            .init(name: "Currency", kind: "regular", path: "Modules/Currency", dependencies: []),
        ])
        let kinds = ManifestKinds(
            kernel: "Core", modules: ["Core", "Payments", "Order"], pluginPoints: [], sharedLibraries: ["Currency"],
            adapters: [:], testSupport: [], interfaces: ["OrderInterface"])
        let rule = DependencyRule(graph: graph, kinds: kinds)
        #expect(rule.manifestViolations().isEmpty)
        #expect(rule.violation("Payments", dependsOn: "OrderInterface") == nil)
        #expect(rule.violation("OrderInterface", dependsOn: "Currency") == nil)
        #expect(
            rule.violation("Payments", dependsOn: "Order")
                == "Payments must not depend on Order: modules depend on Core, shared libraries, plugin points () "
                + "and squads' interfaces (OrderInterface) only")
        #expect(
            rule.violation("OrderInterface", dependsOn: "Order")
                == "OrderInterface may depend on Core and shared libraries only (an interface declares events), not Order"
        )
    }

    @Test func manifestEdgesAreChecked() {
        #expect(
            rule.manifestViolations() == [
                "Package.swift: Payments must not depend on Order: modules depend on Core, shared libraries, plugin points (Login, Tabs) and squads' interfaces (OrderInterface) only"
            ])
    }

    @Test func importLinesAreChecked() {
        let source = "import Core\nimport Foundation\n@testable import Login\nimport HostKit\nimport Order\n"
        #expect(
            rule.importViolations(module: "Order", file: "Modules/Order/X.swift", source: source) == [
                "Modules/Order/X.swift:3: Order imports Login but Package.swift does not declare it",
                "Modules/Order/X.swift:4: Order must not depend on HostKit: modules never import an app",
            ])
        #expect(rule.importViolations(module: "Profile", file: "P.swift", source: "import Login\nimport Core").isEmpty)
        #expect(
            rule.importViolations(module: "Core", file: "C.swift", source: "import Order")
                == ["C.swift:1: Core must not depend on Order: Core depends on the toolchain only"])
    }

    @Test func sharedLibrariesServeModulesAndDependOnCoreAndEachOtherOnly() {
        #expect(rule.violation("Payments", dependsOn: "Currency") == nil)
        #expect(rule.violation("TerminalUI", dependsOn: "Core") == nil)
        #expect(rule.violation("TerminalUI", dependsOn: "Currency") == nil)
        #expect(
            rule.violation("Currency", dependsOn: "Payments")
                == "Currency must not depend on Payments: shared libraries depend on Core and each other only")
        #expect(
            rule.violation("Core", dependsOn: "Currency")
                == "Core must not depend on Currency: Core depends on the toolchain only")
    }

    @Test func adaptersAreForAppsOnly() {
        #expect(rule.violation("CoreHTTP", dependsOn: "CurlBinding") == nil)
        #expect(
            rule.violation("CoreHTTP", dependsOn: "Order") == "CoreHTTP may depend on Core, CurlBinding only, not Order"
        )
        #expect(
            rule.violation("CurlBinding", dependsOn: "Core")
                == "CurlBinding must not depend on Core: it uses system libraries only")
        #expect(
            rule.importViolations(module: "Payments", file: "P.swift", source: "import CoreHTTP")
                == [
                    "P.swift:1: Payments must not depend on CoreHTTP: squad modules get a Backend from the host; only apps build one"
                ])
        #expect(rule.manifestViolations().count == 1)
    }

    @Test func lintFindsCoverageDuplicatesShadowsAndDeadPatterns() {
        let owners = CodeOwners(text: "/src/ @a\n/src/ @b\n* @c\n/nothing/ @d\n[x] @e\n")
        let findings = CodeOwnersLint(owners: owners, path: "CODEOWNERS").findings(trackedFiles: [
            "src/a.swift", "README.md",
        ])
        #expect(findings.contains("CODEOWNERS:5:1: '[' ranges are not supported by GitHub; escape it as '\\['"))
        #expect(findings.contains("CODEOWNERS:2: duplicate pattern '/src/' (first on line 1)"))
        #expect(findings.contains("CODEOWNERS:4: pattern '/nothing/' matches no tracked file"))
        #expect(findings.contains { $0.hasPrefix("CODEOWNERS:1: rule '/src/' is shadowed") })
        #expect(
            CodeOwnersLint(owners: CodeOwners(text: "/src/ @a"), path: "C").findings(trackedFiles: ["x"]).contains(
                "x: no CODEOWNERS line owns this file"))
    }

    @Test func theRealRepositoryLintsClean() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        var output = ""
        var errors = ""
        let status = SquadApp.run(["lint"], directory: root, output: &output, errors: &errors)
        #expect(status == 0, "\(output)\(errors)")
        // Warnings (a new team not yet filled in, a README still saying TODO) may precede the verdict.
        #expect(output.split(separator: "\n").last?.hasPrefix("lint: clean") == true, "\(output)")
        #expect(output.split(separator: "\n").dropLast().allSatisfy { $0.hasPrefix("warning: ") }, "\(output)")
    }

    @Test func ownersCommandFormats() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        var output = ""
        var errors = ""
        #expect(
            SquadApp.run(
                ["owners", "Modules/Payments/PaymentInfo.swift", "Package.swift"], directory: root, output: &output,
                errors: &errors) == 0)
        #expect(output == "Modules/Payments/PaymentInfo.swift\t@courier/payments\nPackage.swift\t@courier/platform\n")
        output = ""
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("co-\(UUID().uuidString)")
        try Data("/a/ @x\n/a/b/\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        _ = SquadApp.run(
            ["owners", "--codeowners", file.path, "--format", "json", "a/1", "a/b/2", "c"], directory: root,
            output: &output, errors: &errors)
        #expect(
            output
                == #"[{"line":1,"owners":["@x"],"path":"a/1"},{"line":2,"owners":[],"path":"a/b/2"},{"line":null,"owners":[],"path":"c"}]"#
                + "\n")
    }
}

@Suite struct CheckCommandTests {
    /// `squad check` runs .ci/checks' fast lines (one verdict each) and names the CI-only ones; a failing check
    /// fails the command, as it would fail CI.
    @Test func checksFromTheSharedListOneLineEach() async throws {
        let repo = try await GitRepository.package(
            checks: "# name\tscope\tcommand\nquick\tfast\ttrue\nslow\tci\tfalse\n")
        try repo.write("Modules/A/A.swift", "public let a = 2\n")
        let passing = await repo.squad(["check"])
        #expect(passing.status == 0, "\(passing.output)\(passing.errors)")
        #expect(passing.output.contains("quick     ok (as CI runs it"))
        #expect(passing.output.contains("slow      left to CI (false)"))
        #expect(passing.output.contains("check: CI's fast checks pass for 1 changed file(s)"))
        try repo.write(".ci/checks", "broken\tfast\techo boom >&2; exit 3\n")
        let failing = await repo.squad(["check"])
        #expect(failing.status == 1)
        #expect(failing.output.contains("broken    FAILED (as CI runs it, exit 3): run echo boom >&2; exit 3"))
        #expect(failing.errors.contains("boom"))
        #expect(failing.output.hasSuffix("check: 1 check(s) would fail in CI\n"))
    }

    /// A deliberately failing squad test: check names it and its first failure line, for Swift Testing (which
    /// reports on stdout) and XCTest alike, with a real `swift test` of a real package.
    @Test func aFailingTestIsNamedWithItsFirstFailure() async throws {
        let repo = try await GitRepository()
        try repo.write(
            "Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "P",
                targets: [
                    .target(name: "A", path: "Modules/A"),
                    .testTarget(name: "ATests", dependencies: ["A"], path: "Tests/ATests"),
                ])

            """)
        try repo.write("Modules/A/A.swift", "public let answer = 41\n")
        try repo.write(
            "Tests/ATests/ATests.swift",
            """
            import A
            import Testing
            import XCTest

            @Suite struct Answers {
                @Test func theAnswer() { #expect(answer == 42, "the squad's rule") }
                @Test func stillFine() { #expect(answer > 0) }
            }

            final class OldAnswers: XCTestCase {
                func testTheAnswer() async { XCTAssertEqual(answer, 42, "old style") }
            }

            """)
        try repo.write("CODEOWNERS", "* @org/all\n")
        // SwiftPM keeps its lock files in TMPDIR, named after the package's path: pointed into the repository,
        // they go when it goes instead of piling up in /tmp, two for every run of this test.
        let swiftTest = #"TMPDIR="$PWD/.build" swift test"#
        try repo.write(".ci/checks", "unit\tfast\t\(swiftTest)\nfuzz\tci\t\(String(repeating: "x", count: 90))\n")
        try await repo.commit("base")
        try FileManager.default.createDirectory(
            at: repo.root.appendingPathComponent(".build"), withIntermediateDirectories: true)
        try repo.write("Modules/A/A.swift", "public let answer = 40\n")
        let check = await repo.squad(["check"])
        #expect(check.status == 1)
        #expect(
            check.output.contains("unit      FAILED (as CI runs it, exit 1): run \(swiftTest)\n"), "\(check.output)")
        #expect(
            check.output.contains(
                "  ✘ theAnswer() (ATests.swift:6:30): Expectation failed: (answer → 40) == 42\n"), "\(check.output)")
        #expect(
            check.output.contains(
                #"  ✘ OldAnswers.testTheAnswer (ATests.swift:11): XCTAssertEqual failed: ("40") is not equal to ("42") - old style"#
            ), "\(check.output)")
        #expect(!check.output.contains("stillFine"))
        #expect(check.output.contains("fuzz      left to CI (\(String(repeating: "x", count: 90)))\n"), "whole")
    }
}
