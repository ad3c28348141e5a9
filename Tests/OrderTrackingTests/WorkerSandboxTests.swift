import ComponentWorkers
import Confinement
import CoreTesting
import Foundation
import HostIO
import Testing

@testable import OrderTrackingKit

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The real host and its real workers, seen from outside as another process of the person's would see them: each
/// worker in a sandbox of its own, nothing of the person's session in it, the host's secrets out of reach.
@Suite struct WorkerSandboxTests {
    #if os(Linux)
        /// One field of /proc/PID/stat after the command's name (0: the state), or nil when it is gone.
        private static func stat(_ pid: pid_t) -> [String]? {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
            return text.split(separator: ")").last?.split(separator: " ").map(String.init)
        }

        /// The processes whose parent is `parent`.
        private static func children(of parent: pid_t) -> [pid_t] {
            let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { pid_t($0) } ?? []
            return all.filter { stat($0)?[1] == String(parent) }
        }

        private static func read(_ path: String) -> String {
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }

        @Test func aWatchedScreensWorkersAreConfinedAndTheHostsSecretsAreOutOfTheirReach() async throws {
            let (secret, marker) = ("COURIER_TEST_TOKEN", "boundary-\(UUID())")
            let host = try ChildProcess.start(
                [CLI.binary, "1234", "--watch", "--plain", "--data-dir", CLI.dataHome.path],
                environment: CLI.environment.merging([secret: "token-4711", "COURIER_TEST_RUN": marker]) { $1 })
            defer {
                host.send(SIGKILL)
                _ = host.wait()
            }
            // Order, Location and Payments each have a worker once the first frame is drawn (and each module a squad
            // adds to the screen has one too).
            var workers: [pid_t] = []
            for _ in 0..<3000 where workers.count < 3 {
                try await Task.sleep(for: .milliseconds(10))
                workers = Self.children(of: host.id)
            }
            #expect(workers.count >= 3)
            let confined = SystemSandbox.current.missing.isEmpty
            for worker in workers {
                // Started (past its spawn) before it is looked at.
                for _ in 0..<3000 where !Self.read("/proc/\(worker)/cmdline").contains("__worker") {
                    try await Task.sleep(for: .milliseconds(10))
                }
                let stat = try #require(Self.stat(worker))
                #expect(stat[3] == String(worker) && stat[4] == "0", "a session of its own, no terminal: \(stat)")
                #expect(Self.read("/proc/\(worker)/cmdline").contains("__worker"))
                #expect(
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(worker)/fd/0")) == "/dev/null")
                let folder = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(worker)/cwd")) ?? ""
                #expect(folder.hasSuffix("(deleted)"), "an empty folder no one can add to: \(folder)")
                let environment = Self.read("/proc/\(worker)/environ")
                #expect(!environment.contains(secret) && environment.contains("COURIER_TEST_RUN=\(marker)"))
                if confined {
                    // Confined in its first moments, before any squad code: waited for from its start.
                    for _ in 0..<3000 where !Self.read("/proc/\(worker)/status").contains("Seccomp:\t2") {
                        try await Task.sleep(for: .milliseconds(10))
                    }
                    let status = Self.read("/proc/\(worker)/status")
                    #expect(status.contains("NoNewPrivs:\t1") && status.contains("Seccomp:\t2"), "\(status)")
                }
            }
            // The host's command line and environment, as any process reads them: blank past its name.
            let line = Self.read("/proc/\(host.id)/cmdline")
            #expect(line.hasPrefix(CLI.binary) && !line.contains("1234") && !line.contains("--data-dir"))
            // But for the test runner's marker, by which Scripts/test-clean finds what a run left behind.
            let environment = Self.read("/proc/\(host.id)/environ")
            #expect(!environment.contains(secret) && environment.contains("COURIER_TEST_RUN=\(marker)"))
            // Two descriptors of the host's per worker: its protocol's socket and its errors'. Counted against the
            // workers alive then (one still starting holds its sockets a moment before it is a child): a third per
            // worker would never agree.
            var counts: (sockets: Int, workers: Int) = (0, 0)
            for _ in 0..<300 where counts.workers == 0 || counts.sockets != 2 * counts.workers {
                let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(host.id)/fd")) ?? []
                let sockets = descriptors.filter {
                    ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(host.id)/fd/\($0)")) ?? "")
                        .hasPrefix("socket:")
                }
                counts = (sockets.count, Self.children(of: host.id).count)
                if counts.sockets != 2 * counts.workers { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(counts.sockets == 2 * counts.workers, "\(counts.sockets) sockets for \(counts.workers) workers")
            workers = Self.children(of: host.id)
            // The run's end ends its workers.
            host.send(SIGTERM)
            for _ in 0..<3000 where workers.contains(where: { Self.stat($0) != nil && Self.stat($0)?[0] != "Z" }) {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(workers.allSatisfy { Self.stat($0) == nil || Self.stat($0)?[0] == "Z" })
        }

        /// Under a low `ulimit -n` the workers that cannot start say why in a person's words, and every card that
        /// can be shown is: the limit that leaves the host room for some workers and not all is found by trying.
        /// At every limit the run ends with a documented status, never a crash (Dispatch traps the host when it
        /// cannot open a file, so the host keeps some descriptors for itself), and a run that cannot go on says
        /// "too many open files", not "check its permissions".
        @Test func tooFewDescriptorsSayTooManyOpenFilesAndTheOtherCardsAreShown() async throws {
            var seen = false
            for limit in 8...40 {
                let run = try await ProcessRunner.run(
                    "/bin/sh", ["-c", "ulimit -n \(limit); exec \"$0\" 1234 --format json", CLI.binary],
                    environment: CLI.environment)
                #expect((0...2).contains(run.status), "ulimit -n \(limit): \(run.status) \(run.stderr)")
                #expect(!run.stderr.contains("no pipe") && !run.stderr.contains("no socket"))
                #expect(!run.stderr.contains("permissions"), "ulimit -n \(limit): \(run.stderr)")
                if limit < OrderTrackingApp.descriptors {
                    #expect(
                        run.status == 1
                            && run.stderr == "order-tracking: too many open files: it needs 24 and ulimit -n allows "
                                + "\(limit); raise it (ulimit -n 24) and run it again\n"
                    )
                }
                if run.status == 1 { #expect(run.stderr.contains("too many open files"), "\(run.stderr)") }
                guard !seen, run.stderr.contains("worker could not start"), run.status == 2 else { continue }
                let report = try CLI.json(run.stdout)
                let cards = report["components"] as? [[String: Any]] ?? []
                let hidden = cards.filter { $0["hidden"] as? Bool == true }
                #expect(
                    hidden.allSatisfy {
                        ($0["reason"] as? String ?? "").hasSuffix("could not start: too many open files")
                    })
                seen = cards.contains { $0["state"] as? String == "info" }
            }
            #expect(seen, "no limit left room for some workers and not all")
        }
    #endif

    @Test func aSandboxSettingThatMeansNothingIsOneUsageLineAndRequiredRunsWhereEverythingApplies() async throws {
        let bad = try await CLI.run(["1234", "--plain"], extra: ["COURIER_WORKER_SANDBOX": "strict"])
        #expect(bad.status == 64)
        #expect(
            bad.stderr
                == "order-tracking: COURIER_WORKER_SANDBOX='strict' is not required (refuse to run squads' code "
                + "without every protection) or available (run it with what this system has) (see 'order-tracking --help')\n"
        )
        let required = try await CLI.run(["1234", "--plain"], extra: ["COURIER_WORKER_SANDBOX": "required"])
        if let line = WorkerSandbox.line(SystemSandbox.current.missing) {
            #expect(required.status == 64 && required.stderr.contains("COURIER_WORKER_SANDBOX=required"), "\(line)")
        } else {
            #expect(required.status == 0 && required.stderr.isEmpty)
        }
    }

    /// README's floor on open files is the one the command holds.
    @Test func theDescriptorFloorIsTheDocumentedOne() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(OrderTrackingApp.descriptors == 24)
        #expect(
            readme.contains("below 24 (`ulimit -n`) the run is refused") && readme.contains("`ulimit -n` below 24)"))
    }

    @Test func inProcessSaysItRunsUnsandboxed() async throws {
        let run = try await CLI.run(["1234", "--plain"], extra: ["COURIER_IN_PROCESS": "1"])
        #expect(run.status == 0)
        #expect(run.stderr == "note: COURIER_IN_PROCESS=1: squads' code runs in this process, unsandboxed\n")
    }
}
