import BenchmarksKit
import Core
import CoreTesting
import Foundation
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
}
