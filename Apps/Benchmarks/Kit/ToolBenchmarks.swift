import CodeOwnership
import Foundation

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
