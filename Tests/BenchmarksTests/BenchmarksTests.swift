import BenchmarksKit
import Core
import CoreTesting
import Foundation
import JSON
import Testing

/// The benchmark must not rot: its quick mode runs in CI and must print every figure. No time is asserted.
@Suite struct BenchmarksTests {
    @Test func quickModeReportsEveryFigure() async throws {
        let binary = ProcessRunner.productsDirectory.appendingPathComponent("order-tracking")
        let squad = ProcessRunner.productsDirectory.appendingPathComponent("squad")
        let report = try await Benchmarks.run(quick: true, orderTracking: binary, squad: squad) { _ in }
        guard case .object(let root) = report.json else { Issue.record("not an object"); return }
        #expect(
            Set(root.keys) == [
                "concurrency", "first_paint", "scale", "repaint", "plugin_point", "owners", "http_200", "watch",
            ])
        let expected: [String: Set<String>] = [
            "concurrency": ["n4", "n200", "sequential_n4"], "first_paint": ["skeleton_ratio", "whole_run_ratio"],
            "scale": ["n1000_s", "n10000_s", "ratio", "peak_mb"], "repaint": ["ratio"],
            "plugin_point": ["resolves_per_s"],
            "owners": ["paths_per_s", "us_per_path", "lint_s", "lint_files", "rules"],
            "http_200": ["wall_over_slowest", "cpu_s", "curl_cpu_s"],
        ]
        for (group, keys) in expected {
            guard case .object(let figures)? = root[group] else { Issue.record("missing \(group)"); continue }
            for key in keys {
                guard case .number(let value)? = figures[key] else {
                    Issue.record("\(group).\(key) is not a number"); continue
                }
                #expect(value > 0, "\(group).\(key)")
            }
        }
        #expect(report.table.contains("concurrency N=4"))
    }

    /// `--shapes DIR` measures a reviewer's own pairs (every one, by name), and `--go-peer` pointed at a folder
    /// that is no hmarr/codeowners checkout says so instead of a figure (no Go toolchain needed for either).
    @Test func reviewersShapesAreMeasuredAndABadGoCheckoutIsNamed() throws {
        let folder = try TemporaryDirectory()
        try folder.write("* @all\n/docs/ @docs\n*tok*.ts @tok\n", to: "held-out-CODEOWNERS")
        try folder.write("docs/a.md\nsrc/mytoken.ts\nREADME\n", to: "held-out-paths.txt")
        try folder.write("*.md @docs\n", to: "second-CODEOWNERS")
        try folder.write("a.md\n", to: "second-paths.txt")
        let json = try Benchmarks.owners(
            quick: true, squad: nil, json: true, peer: false, goCheckout: folder.url, shapes: folder.url)
        guard case .object(let owners) = try JSONValue(parsing: Data(json.utf8)),
            case .array(let shapes)? = owners["shapes"]
        else {
            Issue.record("not the owners object: \(json.prefix(300))")
            return
        }
        let names = shapes.compactMap { shape -> String? in
            guard case .object(let object) = shape, case .string(let name)? = object["name"] else { return nil }
            return name
        }
        #expect(names == ["held-out", "second"])
        guard case .string(let skipped)? = owners["go_skipped"] else {
            Issue.record("no go_skipped: \(json.prefix(300))")
            return
        }
        #expect(skipped.contains("is not a hmarr/codeowners checkout (no match.go)"), "\(skipped)")
    }

    @Test func aShapesFolderWithoutPairsSaysHowToWriteThem() throws {
        let folder = try TemporaryDirectory()
        #expect {
            _ = try Benchmarks.owners(quick: true, squad: nil, json: true, peer: false, shapes: folder.url)
        } throws: { "\($0)".contains("holds no NAME-CODEOWNERS file (write shapes with --dump)") }
    }
}

/// `courier-bench monorepo`'s pieces, without building anything: the names it scaffolds are ones `squad new`
/// takes, its card edit changes what the scaffolded card draws, and its last line is the ratio of the medians.
@Suite struct MonorepoBenchmarkTests {
    @Test func namesAreNumberedAndScaffoldedCardsAreEdited() async throws {
        #expect(MonorepoBenchmark.squadName(1) == "Bench001")
        #expect(MonorepoBenchmark.squadName(60) == "Bench060")
        #expect(MonorepoBenchmark.squadName(200) == "Bench200")
        let root = TestServer.repositoryRoot
        let scratch = try TemporaryDirectory()
        let folder = scratch.url
        try scratch.copy(
            ["Package.swift", "Apps/OrderTracking/Kit/Composition/Registry.swift", "CODEOWNERS", ".swift-format"],
            from: root)
        let squad = ProcessRunner.productsDirectory.appendingPathComponent("squad")
        let name = MonorepoBenchmark.squadName(7)
        let scaffold = try await ProcessRunner.run(
            squad.path, ["new", name, "--owner", "@courier/bench"], directory: folder, limit: .seconds(120))
        #expect(scaffold.status == 0, "\(scaffold.stderr)")
        let card = try String(
            contentsOf: folder.appendingPathComponent("Modules/\(name)/\(name)Component.swift"), encoding: .utf8)
        let edited = try #require(MonorepoBenchmark.changedCard(card, title: "\(name) 60-1"))
        #expect(edited.contains("Block(title: \"\(name) 60-1\""))
        #expect(MonorepoBenchmark.changedCard("no card here", title: "x") == nil)
    }

    @Test func theLastLineIsTheRatioOfTheMedianInnerLoops() {
        let sizes = [
            MonorepoBenchmark.Size(modules: 10, build: 100, innerLoops: [4, 2, 3], affected: 1, lint: 1, owners: 0.1),
            MonorepoBenchmark.Size(
                modules: 60, build: 300, innerLoops: [3.3, 4.5, 9], affected: 1, lint: 1, owners: 0.1),
        ]
        #expect(sizes[0].innerLoop == 3)
        #expect(MonorepoBenchmark.median([4, 1]) == 4 && MonorepoBenchmark.median([]) == 0)
        let report = MonorepoBenchmark.report(sizes)
        #expect(report.split(separator: "\n").last == "inner-loop ratio 60/10: 1.50")
        #expect(report.hasPrefix("  10 squads: build 100.0 s; inner loop 3.00 s (median of 4.00, 2.00, 3.00);"))
    }

    @Test func aSizeNotAboveTheBaselineIsRefused() {
        #expect {
            try MonorepoBenchmark.run(
                modules: 10, repository: URL(fileURLWithPath: "/nonexistent"), squad: URL(fileURLWithPath: "/x")
            ) { _ in }
        } throws: { "\($0)" == "--modules must be more than 10, the size it is compared with" }
    }
}
