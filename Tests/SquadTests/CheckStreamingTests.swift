import CoreTesting
import Foundation
import Testing

@testable import SquadKit

/// `squad check` runs checks that take minutes: what it says reaches the terminal as it happens.
@Suite struct CheckStreamingTests {
    /// Each verdict is printed when its check ends, not when all have: the first check's line arrives before the
    /// second check has run (it leaves a file behind when it does).
    @Test func eachVerdictIsPrintedAsItsCheckEnds() async throws {
        let repo = try await GitRepository.package(checks: "first\tfast\ttrue\nsecond\tfast\ttouch second-ran\n")
        let marker = repo.root.appendingPathComponent("second-ran").path
        let lines = await OwnThread.run { () -> [(line: String, secondHadRun: Bool)] in
            var lines: [(line: String, secondHadRun: Bool)] = []
            let print = SquadOutput(
                out: { lines.append(($0, FileManager.default.fileExists(atPath: marker))) }, err: { _ in })
            _ = SquadApp.run(["check"], directory: repo.root, stdin: { [] }, print: print)
            return lines
        }
        let first = lines.first { $0.line.hasPrefix("first ") }
        #expect(first?.secondHadRun == false, "the first verdict waited for the second check: \(lines.map { $0.line })")
        #expect(lines.last?.secondHadRun == true && lines.last?.line.hasPrefix("check: ") == true)
    }
}
