import Core
import Foundation
import JSON

/// `courier-bench`: every performance figure measured side by side in one run and printed as ratios (these
/// machines are noisy; no figure is ever asserted in a unit test).
public enum Benchmarks {
    /// Every figure of one run.
    public struct Report: Sendable {
        var concurrency: (n4: Sample, n200: Sample, sequentialN4: Sample)
        var firstPaint: FirstPaint.Figures?
        var scale: (n1000: Double, n10000: Double, ratio: Sample, peakMB: Double)
        var repaint: Double
        var resolvesPerSecond: Double
        var owners: OwnersBenchmarks.Figures
        var http: HTTPBenchmarks.Figures?
        var watchCPUms: Double?

        /// The stable JSON shape documented in the README.
        public var json: JSONValue {
            func number(_ value: Double, _ digits: Double = 1000) -> JSONValue {
                .number((value * digits).rounded() / digits)
            }
            var paint: [String: JSONValue] = ["skeleton_ratio": .null, "whole_run_ratio": .null]
            if let firstPaint {
                paint = [
                    "skeleton_ratio": number(firstPaint.skeletonRatio.median),
                    "whole_run_ratio": number(firstPaint.wholeRatio.median),
                    "whole_run_ratio_min": number(firstPaint.wholeRatio.min),
                    "whole_run_ratio_max": number(firstPaint.wholeRatio.max),
                    "whole_run_ratio_vs_static_hello": number(firstPaint.wholeRatioVersusStatic.median),
                    "isolated_ratio_1234": number(firstPaint.isolatedRatio.median),
                    "isolated_ratio_1234_max": number(firstPaint.isolatedRatio.max),
                    "isolated_ratio_9012": number(firstPaint.isolatedSlowRatio.median),
                    "isolated_ratio_9012_max": number(firstPaint.isolatedSlowRatio.max),
                    "skeleton_ms": number(firstPaint.skeleton.median * 1000),
                    "whole_run_ms": number(firstPaint.whole.median * 1000),
                    "hello_ms": number(firstPaint.hello.median * 1000),
                    "static_hello_ms": number(firstPaint.staticHello.median * 1000),
                ]
            }
            return .object([
                "concurrency": .object([
                    "n4": number(concurrency.n4.median), "n4_min": number(concurrency.n4.min),
                    "n4_max": number(concurrency.n4.max),
                    "n200": number(concurrency.n200.median), "n200_min": number(concurrency.n200.min),
                    "n200_max": number(concurrency.n200.max), "sequential_n4": number(concurrency.sequentialN4.median),
                ]),
                "first_paint": .object(paint),
                "scale": .object([
                    "n1000_s": number(scale.n1000, 10000), "n10000_s": number(scale.n10000, 10000),
                    "ratio": number(scale.ratio.median, 100), "ratio_min": number(scale.ratio.min, 100),
                    "ratio_max": number(scale.ratio.max, 100), "peak_mb": number(scale.peakMB, 10),
                ]),
                "repaint": .object(["ratio": number(repaint, 10000)]),
                "plugin_point": .object(["resolves_per_s": .number(resolvesPerSecond.rounded())]),
                "owners": .object(ownersJSON(number)),
                "http_200": .object(
                    http.map { http in
                        [
                            "wall_over_slowest": number(http.wallOverSlowest), "cpu_s": number(http.cpu),
                            "curl_cpu_s": http.curlCPU.map { number($0) } ?? .null,
                            "cpu_over_curl": http.curlCPU.map { number(http.cpu / max($0, 0.001)) } ?? .null,
                        ]
                    } ?? ["wall_over_slowest": .null]),
                "watch": .object(["cpu_ms_per_s": watchCPUms.map { number($0) } ?? .null]),
            ])
        }

        /// The human-readable table, with each target beside its figure.
        public var table: String {
            let paint =
                firstPaint.map {
                    String(format: "%.3f / %.3f", $0.skeletonRatio.median, $0.wholeRatio.median)
                } ?? "skipped"
            let times =
                firstPaint.map {
                    String(
                        format: "%.2f / %.2f / %.2f / %.2f", $0.skeleton.median * 1000, $0.whole.median * 1000,
                        $0.hello.median * 1000, $0.staticHello.median * 1000)
                } ?? "skipped"
            let rows: [(String, String, String)] =
                [
                    ("concurrency N=4 (wall ÷ max latency)", format(concurrency.n4), "≤ 1.05"),
                    ("concurrency N=200 (wall ÷ max latency)", format(concurrency.n200), "≤ 1.05"),
                    (
                        "sequential N=4 (wall ÷ sum latency)", String(format: "%.3f", concurrency.sequentialN4.median),
                        "contrast"
                    ),
                    ("first paint: skeleton / whole run ÷ hello", paint, "whole ≤ 1.5"),
                    ("  ms: skeleton / whole / hello / static hello", times, "report"),
                    (
                        "isolated ÷ in-process: 1234 / 9012 (slow)",
                        firstPaint.map {
                            String(format: "%.3f / %.3f", $0.isolatedRatio.median, $0.isolatedSlowRatio.median)
                        } ?? "skipped", "≤ 2.0 / ≤ 1.05"
                    ),
                    ("scale 1k cards (s)", String(format: "%.4f", scale.n1000), "report"),
                    ("scale 10k cards (s)", String(format: "%.4f", scale.n10000), "≤ 1 s"),
                    ("scale 10k ÷ 1k", format(scale.ratio), "≤ 12"),
                    ("peak memory (MB)", String(format: "%.1f", scale.peakMB), "≤ 150"),
                    ("repaint bytes ÷ full frame (50 cards)", String(format: "%.4f", repaint), "≪ 1"),
                    ("plugin point resolves/s (10 plugins)", String(format: "%.0f", resolvesPerSecond), "report"),
                    (
                        "owners, worst of \(owners.shapes.count) shapes (\(owners.worst.name))",
                        String(format: "%.3f µs/path", owners.worst.microsecondsPerPath)
                            + (owners.worst.ratio.map { String(format: " (%.1f× the peer)", $0) } ?? " (peer skipped)"),
                        "≥ 30×, all agree"
                    ),
                    (
                        "owners, worst against hmarr/codeowners (Go)",
                        owners.worstAgainstGo.map {
                            String(format: "%.1f× (%@)", $0.goRatio!, $0.name)
                        } ?? "skipped: \(owners.goSkipped ?? "")", "≥ 20×"
                    ),
                    (
                        "owners, slowest shape ÷ fastest (µs/path)", String(format: "%.2f", owners.spread), "≤ 3"
                    ),
                    (
                        "owners, slowest ÷ fastest per path segment", String(format: "%.2f", owners.spreadPerSegment),
                        "report"
                    ),
                    (
                        "owners, slowest ÷ fastest, whole process (CPU)",
                        owners.spreadWholeProcess.map { String(format: "%.2f", $0) } ?? "skipped (--quick)", "report"
                    ),
                ] + ownerRows + [
                    (
                        "squad lint, \(owners.lintFiles) files (s)",
                        owners.lintSeconds.map { String(format: "%.3f", $0) } ?? "skipped", "< 2"
                    ),
                    (
                        "HTTP 200 cards: wall ÷ slowest",
                        http.map { String(format: "%.3f", $0.wallOverSlowest) } ?? "skipped", "≤ 1.1"
                    ),
                    (
                        "HTTP 200 cards: CPU ÷ curl --parallel",
                        http.map { http in
                            http.curlCPU.map {
                                String(format: "%.2f (%.3f s ÷ %.3f s)", http.cpu / max($0, 0.001), http.cpu, $0)
                            }
                                ?? "no curl"
                        } ?? "skipped", "≤ 2"
                    ),
                    (
                        "watch: CPU ms per s beyond a screen",
                        watchCPUms.map { String(format: "%.2f", $0) } ?? "skipped",
                        "≈ 0"
                    ),
                ]
            let width = rows.map(\.0.count).max() ?? 0
            return rows.map {
                "\($0.0.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.1 + String(repeating: " ", count: max(0, 28 - $0.1.count)))  target \($0.2)"
            }
            .joined(separator: "\n")
        }

        /// One row per CODEOWNERS shape: in process beside the peer, and through the CLI.
        private var ownerRows: [(String, String, String)] {
            owners.shapes.map { shape in
                var figure = String(
                    format: "%.3f µs (%.1f segments, %.0f ns each)", shape.microsecondsPerPath, shape.segmentsPerPath,
                    shape.nanosecondsPerSegment)
                if let peer = shape.peer, let ratio = shape.ratio {
                    figure += String(
                        format: "; Python %.2f = %.1f×, %d/%d agree", peer.microsecondsPerPath, ratio, peer.agreed,
                        peer.paths)
                }
                if let peer = shape.goPeer, let ratio = shape.goRatio {
                    figure += String(
                        format: "; Go %.2f = %.1f×, %d/%d agree", peer.microsecondsPerPath, ratio, peer.agreed,
                        peer.paths)
                }
                if let cli = shape.cliSeconds { figure += String(format: "; CLI %.3f s", cli) }
                if let cpu = shape.cliCPUMicrosecondsPerPath { figure += String(format: " (CPU %.2f µs/path)", cpu) }
                if let agreed = shape.cliAgreed, agreed != shape.paths {
                    figure += "; CLI agrees on \(agreed)/\(shape.paths)"
                }
                return ("  owners: \(shape.name)", figure, "CLI < 0.1 s")
            }
        }

        private func ownersJSON(_ number: (Double, Double) -> JSONValue) -> [String: JSONValue] {
            let worst = owners.worst
            let shapes: [JSONValue] = owners.shapes.map { shapeJSON($0, number) }
            var object: [String: JSONValue] = [
                "rules": .number(Double(worst.rules)),
                "worst_shape": .string(worst.name),
                "us_per_path": number(worst.microsecondsPerPath, 10000),
                "paths_per_s": .number((1e6 / worst.microsecondsPerPath).rounded()),
                "slowest_over_fastest": number(owners.spread, 100),
                "slowest_over_fastest_per_segment": number(owners.spreadPerSegment, 100),
                "slowest_over_fastest_whole_process": owners.spreadWholeProcess.map { number($0, 100) } ?? .null,
                "shapes": .array(shapes),
                "lint_files": .number(Double(owners.lintFiles)),
            ]
            object["peer_us_per_path"] = worst.peer.map { number($0.microsecondsPerPath, 100) } ?? .null
            object["speedup_vs_peer"] = worst.ratio.map { number($0, 10) } ?? .null
            object["peer_skipped"] = owners.peerSkipped.map(JSONValue.string) ?? .null
            object["go_skipped"] = owners.goSkipped.map(JSONValue.string) ?? .null
            object["worst_speedup_vs_go"] = owners.worstAgainstGo?.goRatio.map { number($0, 10) } ?? .null
            object["lint_s"] = owners.lintSeconds.map { number($0, 1000) } ?? .null
            return object
        }

        private func shapeJSON(_ shape: OwnersBenchmarks.Shape, _ number: (Double, Double) -> JSONValue) -> JSONValue {
            var object: [String: JSONValue] = [
                "name": .string(shape.name), "rules": .number(Double(shape.rules)),
                "paths": .number(Double(shape.paths)), "us_per_path": number(shape.microsecondsPerPath, 10000),
                "segments_per_path": number(shape.segmentsPerPath, 100),
                "ns_per_segment": number(shape.nanosecondsPerSegment, 10),
            ]
            object["peer_us_per_path"] = shape.peer.map { number($0.microsecondsPerPath, 100) } ?? .null
            object["speedup_vs_peer"] = shape.ratio.map { number($0, 10) } ?? .null
            object["peer_agreed"] = shape.peer.map { .number(Double($0.agreed)) } ?? .null
            object["peer_paths"] = shape.peer.map { .number(Double($0.paths)) } ?? .null
            object["go_us_per_path"] = shape.goPeer.map { number($0.microsecondsPerPath, 100) } ?? .null
            object["speedup_vs_go"] = shape.goRatio.map { number($0, 10) } ?? .null
            object["go_agreed"] = shape.goPeer.map { .number(Double($0.agreed)) } ?? .null
            object["cli_s"] = shape.cliSeconds.map { number($0, 1000) } ?? .null
            object["cli_agreed"] = shape.cliAgreed.map { .number(Double($0)) } ?? .null
            object["cli_cpu_us_per_path"] = shape.cliCPUMicrosecondsPerPath.map { number($0, 100) } ?? .null
            return .object(object)
        }

        private func format(_ sample: Sample) -> String {
            String(format: "%.3f (%.3f–%.3f)", sample.median, sample.min, sample.max)
        }
    }

    /// Writes each CODEOWNERS shape (`<n>-CODEOWNERS`, `<n>-paths.txt`) into `folder` (made if missing), to
    /// profile or to compare with another tool by hand; a failure names the file and what to do.
    public static func dumpOwnerShapes(to folder: URL) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw BenchmarkError(message: "cannot make the folder \(folder.path); pass a folder you can write to")
        }
        for (number, shape) in OwnersShape.all(rules: 1000, paths: 100_000).enumerated() {
            for (name, text) in [
                ("\(number)-CODEOWNERS", shape.codeowners),
                ("\(number)-paths.txt", shape.paths.joined(separator: "\n") + "\n"),
            ] {
                let file = folder.appendingPathComponent(name)
                do { try text.write(to: file, atomically: true, encoding: .utf8) } catch {
                    throw BenchmarkError(
                        message: "cannot write \(file.path) (is the disk full or the folder read-only?); nothing "
                            + "else was written after it")
                }
            }
        }
    }

    /// `courier-bench owners`: only the CODEOWNERS figures, every shape beside the peer, in process and through
    /// the CLI, and `squad lint`; the table (or `json`) ends with the worst shape, the figure the README quotes.
    public static func owners(
        quick: Bool, squad: URL?, json: Bool, peer: Bool = true, goCheckout: URL? = nil, shapes: URL? = nil
    ) throws -> String {
        let figures = try OwnersBenchmarks.measure(
            rules: quick ? 100 : 1000, paths: quick ? 5000 : 100_000, squad: squad,
            peer: peer && (!quick || FileManager.default.fileExists(atPath: ".build/bench-venv/bin/python")),
            goCheckout: goCheckout, shapes: try shapes.map(OwnersShape.load))
        let report = Report(
            concurrency: (Sample([0]), Sample([0]), Sample([0])), firstPaint: nil, scale: (0, 0, Sample([0]), 0),
            repaint: 0, resolvesPerSecond: 0, owners: figures, http: nil, watchCPUms: nil)
        if json, case .object(let all) = report.json, let owners = all["owners"] { return owners.text }
        let rows = report.table.split(separator: "\n").filter { $0.contains("owners") || $0.contains("squad lint") }
        return rows.joined(separator: "\n")
    }

    /// Runs everything; `quick` uses fewer repetitions and a smaller CODEOWNERS workload (for CI).
    public static func run(
        quick: Bool, orderTracking: URL?, squad: URL?, log: @Sendable (String) -> Void
    ) async throws -> Report {
        let repeats = quick ? 1 : 5
        // First paint goes first, while this process is still idle: its figures are other processes' start-up.
        var firstPaint: FirstPaint.Figures?
        if let orderTracking {
            log("first paint…")
            firstPaint = try FirstPaint.measure(orderTracking: orderTracking, runs: quick ? 2 : 41)
        }
        log("concurrency…")
        let four: [Duration] = [.milliseconds(40), .milliseconds(80), .milliseconds(120), .milliseconds(160)]
        let many: [Duration] = (0..<200).map { .milliseconds(20 + ($0 * 37) % 180) }
        var n4: [Double] = []
        var n200: [Double] = []
        var sequential: [Double] = []
        for _ in 0..<repeats {
            n4.append(try await KernelBenchmarks.concurrencyRatio(four))
            n200.append(try await KernelBenchmarks.concurrencyRatio(many))
            sequential.append(try await KernelBenchmarks.concurrencyRatio(four, sequential: true))
        }
        log("scale…")
        var small: [Double] = []
        var large: [Double] = []
        for _ in 0..<(quick ? 1 : 9) {
            small.append(try await KernelBenchmarks.scale(1000))
            large.append(try await KernelBenchmarks.scale(10000))
        }
        let peak = peakMemoryMB()
        log("repaint, plugin point, owners…")
        let repaint = KernelBenchmarks.repaintRatio()
        let resolves = try KernelBenchmarks.pluginResolvesPerSecond(duration: quick ? 0.1 : 0.5)
        log("owners: CODEOWNERS lookups beside the Python peer, and squad lint…")
        let owners = try OwnersBenchmarks.measure(
            rules: quick ? 100 : 1000, paths: quick ? 5000 : 100_000, squad: squad,
            peer: !quick || FileManager.default.fileExists(atPath: ".build/bench-venv/bin/python"))
        log("HTTP: 200 cards from a real server, and curl --parallel…")
        var http: HTTPBenchmarks.Figures?
        do { http = try await HTTPBenchmarks.twoHundredCards() } catch { log("HTTP figure skipped: \(error)") }
        var watch: Double?
        if let orderTracking {
            log("watch…")
            watch = try? HTTPBenchmarks.watchCPUPerSecond(orderTracking: orderTracking, window: .seconds(quick ? 2 : 8))
        }
        return Report(
            concurrency: (Sample(n4), Sample(n200), Sample(sequential)), firstPaint: firstPaint,
            scale: (Sample(small).median, Sample(large).median, Sample(zip(large, small).map { $0 / $1 }), peak),
            repaint: repaint, resolvesPerSecond: resolves,
            owners: owners, http: http, watchCPUms: watch)
    }
}
