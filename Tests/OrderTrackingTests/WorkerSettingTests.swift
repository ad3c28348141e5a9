import Foundation
import Testing

/// The two variables that say where squads' code runs are read once, and a value that means nothing is one line.
@Suite struct WorkerSettingTests {
    @Test(arguments: [
        ("COURIER_WORKER_MEMORY_MB", "abc", "COURIER_WORKER_MEMORY_MB='abc' is not a number of MiB from 16 to 1048576"),
        ("COURIER_WORKER_MEMORY_MB", "8", "COURIER_WORKER_MEMORY_MB='8' is not a number of MiB from 16 to 1048576"),
        (
            "COURIER_IN_PROCESS", "yes",
            "COURIER_IN_PROCESS='yes' is not 1 (squads' code in this process) or 0 (in workers)"
        ),
    ])
    func aValueThatMeansNothingIsOneUsageLine(name: String, value: String, line: String) async throws {
        let run = try await CLI.run(["1234", "--plain"], extra: [name: value])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "order-tracking: \(line) (see 'order-tracking --help')\n")
    }

    @Test func inProcessAndInWorkersDrawTheSameScreen() async throws {
        let workers = try await CLI.run(["1234", "--format", "json"], extra: ["COURIER_NOW": "2027-01-15T08:00:00Z"])
        let here = try await CLI.run(
            ["1234", "--format", "json"], extra: ["COURIER_NOW": "2027-01-15T08:00:00Z", "COURIER_IN_PROCESS": "1"])
        #expect(workers.status == 0 && here.status == 0)
        /// Everything but the times it took.
        func shown(_ text: String) throws -> String {
            text.replacing(/"elapsed_ms":\s*\d+/, with: "")
        }
        #expect(try shown(workers.stdout) == shown(here.stdout))
        #expect(workers.stdout.contains("\"restaurant\""))
    }
}
