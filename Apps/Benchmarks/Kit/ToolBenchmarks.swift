import Foundation
import SquadKit

/// The tools under load: `squad owners` logic, and whole-process timings of `order-tracking`.
enum ToolBenchmarks {
    /// Paths per second through CODEOWNERS ownership, on a deterministic repo of `rules` rules and `paths` paths.
    static func ownersPathsPerSecond(rules: Int, paths: Int) -> Double {
        var lines = ["* @org/platform"]
        var generator = SplitMix(seed: 42)
        let teams = (0..<40).map { "@org/team\($0)" }
        let folders = (0..<200).map { "pkg\($0)" }
        for index in 0..<rules - 1 {
            let folder = folders[Int(generator.next() % UInt64(folders.count))]
            let team = teams[index % teams.count]
            switch index % 5 {
            case 0: lines.append("/\(folder)/ \(team)")
            case 1: lines.append("/\(folder)/src/*.swift \(team)")
            case 2: lines.append("*.gen\(index) \(team)")
            case 3: lines.append("/\(folder)/**/docs/ \(team)")
            default: lines.append("\(folder)/tests/ \(team)")
            }
        }
        let owners = CodeOwners(text: lines.joined(separator: "\n"))
        let files = (0..<paths).map { index -> String in
            let folder = folders[Int(generator.next() % UInt64(folders.count))]
            let depth = Int(generator.next() % 4)
            let middle = (0..<depth).map { ["src", "docs", "tests", "lib"][($0 + index) % 4] }.joined(separator: "/")
            return [folder, middle, "file\(index).swift"].filter { !$0.isEmpty }.joined(separator: "/")
        }
        var owned = 0
        let start = ContinuousClock.now
        for file in files where !owners.ownership(of: file).owners.isEmpty { owned += 1 }
        let elapsed = (ContinuousClock.now - start).seconds
        return owned == files.count ? Double(files.count) / elapsed : 0
    }

    /// Whole-run times of a hello-world executable and of `order-tracking`, and the time to its first
    /// complete skeleton frame (every slot presented, seen in its trace). Medians of `runs`.
    static func firstPaint(orderTracking: URL, runs: Int) throws -> (skeleton: Sample, whole: Sample, hello: Sample) {
        let hello = try buildHelloWorld()
        var helloTimes: [Double] = []
        var wholeTimes: [Double] = []
        var skeletonTimes: [Double] = []
        for _ in 0..<runs {
            helloTimes.append(try timeProcess(hello, [], until: nil))
            wholeTimes.append(try timeProcess(orderTracking, ["1234", "--plain"], until: nil))
            skeletonTimes.append(
                try timeProcess(orderTracking, ["9012", "--plain", "--trace"], until: "account: start → loading"))
        }
        return (Sample(skeletonTimes), Sample(wholeTimes), Sample(helloTimes))
    }

    /// Seconds from launch to exit, or to the first stderr line containing `marker`.
    static func timeProcess(_ executable: URL, _ arguments: [String], until marker: String?) throws -> Double {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let sanitizerOptions = ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }
        process.environment = sanitizerOptions.merging(
            ["PATH": "/usr/bin:/bin", "COLUMNS": "60", "HOME": NSTemporaryDirectory()]) { $1 }
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let start = ContinuousClock.now
        try process.run()
        var elapsed: Double?
        if let marker {
            var text = ""
            while elapsed == nil {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
                if text.contains(marker) { elapsed = (ContinuousClock.now - start).seconds }
            }
        } else {
            _ = errors.fileHandleForReading.readDataToEndOfFile()
        }
        process.waitUntilExit()
        let whole = (ContinuousClock.now - start).seconds
        guard process.terminationStatus == 0 || marker != nil else {
            throw BenchmarkError(message: "\(executable.lastPathComponent) exited \(process.terminationStatus)")
        }
        return elapsed ?? whole
    }

    /// A hello-world Swift executable built with the same optimisation as this benchmark.
    static func buildHelloWorld() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-hello")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("main.swift")
        let binary = folder.appendingPathComponent("hello")
        try Data("print(\"hello, world\")\n".utf8).write(to: source)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        #if DEBUG
            process.arguments = ["swiftc", "-Onone", source.path, "-o", binary.path]
        #else
            process.arguments = ["swiftc", "-O", source.path, "-o", binary.path]
        #endif
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError(message: "cannot build hello world with swiftc")
        }
        return binary
    }
}

/// A tiny deterministic generator, so every run benchmarks the same repository.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
