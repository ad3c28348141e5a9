import CoreTesting
import Foundation
import Testing

@Suite struct ProcessRunnerTests {
    /// A child given an environment of its own still gets the run's temporary folder (Scripts/test-clean's, which
    /// the run must leave empty), unless the test names one itself.
    @Test func aChildWithItsOwnEnvironmentKeepsTheRunsTemporaryFolder() async throws {
        let script = #"printf '%s' "$TMPDIR""#
        let inherited = try await ProcessRunner.run(
            "/bin/sh", ["-c", script], environment: ["PATH": "/usr/bin:/bin"], limit: .seconds(10))
        #expect(inherited.stdout == ProcessInfo.processInfo.environment["TMPDIR"] ?? "")
        let named = try await ProcessRunner.run(
            "/bin/sh", ["-c", script], environment: ["TMPDIR": "/named"], limit: .seconds(10))
        #expect(named.stdout == "/named")
    }
}
