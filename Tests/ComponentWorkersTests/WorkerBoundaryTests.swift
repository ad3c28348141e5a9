import Core
import CoreTesting
import Foundation
import ScreenRuntime
import Testing

@testable import ComponentWorkers

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A card whose code the pool runs in a worker; the "worker" here is a shell command, so what is tested is what
/// the host gives a worker and holds it to, whatever the worker is.
private struct Probe: Component {
    typealias Info = String
    static let id: ComponentID = "probe"
    func load(_ context: ComponentContext) async throws -> String { "hello" }
    func card(for state: ComponentState<String>, context: ComponentContext) -> Block? { nil }
}

/// The pool's trace lines, kept for a test to read.
private final class Traced: Sendable {
    private let lines = Locked([String]())
    var all: [String] { lines.withLock { $0 } }
    func add(_ line: String) { lines.withLock { $0.append(line) } }

    /// Until a line contains `text` (an end is heard on the link's own thread); nil after two minutes.
    func wait(for text: String) async -> String? {
        for _ in 0..<12000 {
            if let line = all.first(where: { $0.contains(text) }) { return line }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// The pid of the worker the pool started.
    func pid() async -> pid_t? {
        guard let line = await wait(for: "started (pid") else { return nil }
        return pid_t(line.split(separator: " ").last?.dropLast() ?? "")
    }
}

/// A backend that counts what reaches it.
private final class Counting: Backend {
    private let paths = Locked([String]())
    var asked: [String] { paths.withLock { $0 } }
    func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        paths.withLock { $0.append(endpoint.path) }
        return Data("{}".utf8)
    }
}

/// What a worker gets from its host (a session, descriptors, a folder, an environment) and what the host holds it
/// to (its module's fetches, its whole group ended and reaped, stopped with the host).
@Suite struct WorkerBoundaryTests {
    private static let registration = ComponentRegistration(module: "Probe", endpoint: "probes/{probe}.json") {
        Probe()
    }

    private static func pool(
        _ script: String, environment: [String: String] = [:], reach: [String: DeclaredReach]? = nil
    ) -> (WorkerPool, CardKernel, Traced, Counting) {
        let (clock, traced, backend) = (VirtualClock(), Traced(), Counting())
        let pool = WorkerPool(
            command: ["/bin/sh", "-c", script], isolated: [Probe.id], clock: clock, environment: environment,
            reach: reach)
        pool.trace { traced.add($0) }
        let context = ComponentContext(backend: backend, clock: clock)
        return (pool, pool.kernel(registration, context: context), traced, backend)
    }

    /// A folder of the test's own, removed after.
    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-boundary-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func whatEachSystemCannotHoldAWorkerToIsNamed() {
        #expect(WorkerProtection.missing(landlock: 7, seccomp: true).isEmpty)
        #expect(WorkerProtection.missing(landlock: 2, seccomp: true) == [.truncation])
        #expect(
            WorkerProtection.missing(landlock: 6, seccomp: false) == [.network, .processes, .terminal, .sharedMemory])
        #expect(WorkerProtection.missing(landlock: 0, seccomp: false) == WorkerProtection.allCases)
        #expect(WorkerSandbox.none.missing == WorkerProtection.allCases)
        #expect(WorkerSandbox.line([]) == nil)
        #expect(
            WorkerSandbox.line([.files, .truncation])
                == "workers: this system cannot hold squads' code to files (Landlock), file truncation (Landlock ABI 3); "
                + "they run without it (COURIER_WORKER_SANDBOX=required refuses instead)")
    }

    @Test func aModulesReachIsWhatItsTemplatesFill() {
        let reach = DeclaredReach(["orders/{order}/payment.json", "promos/{code}.json"])
        #expect(reach.allows(["orders", "1234", "payment.json"]))
        #expect(reach.allows(["promos", "SAVE10.json"]))
        #expect(!reach.allows(["orders", "1234", "details.json"]))
        #expect(!reach.allows(["promos", ".json"]))
        #expect(!reach.allows(["promos", "..", "users", "1234", "account.json"]))
        #expect(!DeclaredReach([]).allows(["orders", "1234", "payment.json"]))
        #expect(DeclaredReach.anything.allows(["anything"]))
    }

    @Test func whatTheSystemCannotApplyIsSaidOnceOnTheTraceAndByComponents() async throws {
        let (clock, traced) = (VirtualClock(), Traced())
        let pool = WorkerPool(
            command: ["/bin/sh", "-c", "sleep 300"], isolated: [], clock: clock, environment: [:],
            missing: [.files, .truncation])
        defer { pool.close() }
        pool.trace { traced.add($0) }
        pool.trace { traced.add($0) }
        #expect(traced.all == [WorkerSandbox.line([.files, .truncation])])
        #expect(pool.unapplied == WorkerSandbox.line([.files, .truncation]))
        let whole = WorkerPool(command: ["/bin/sh"], isolated: [], clock: clock, environment: [:])
        whole.trace { traced.add($0) }
        #expect(traced.all.count == 1 && whole.unapplied == nil)
    }

    // What follows reads the worker's /proc entries: Linux's.
    #if os(Linux)
        @Test func aWorkerStartsInASessionOfItsOwnWithNothingOfThePersons() async throws {
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let report = folder.appendingPathComponent("report").path
            let script = """
                { cat /proc/$$/stat; echo; readlink /proc/$$/fd/0; ls -l /proc/$$/fd; echo end; \
                for _ in $(seq 100); do [ -e "$PWD" ] || break; sleep 0.05; done; \
                [ -e "$PWD" ] && echo "folder there" || echo "folder gone"; env; } > \(report); exit 3
                """
            let (pool, _, traced, _) = Self.pool(
                script, environment: ["LANG": "C.UTF-8", "COURIER_TOKEN": "secret", "HOME": "/home/person"])
            defer { pool.close() }
            let pid = try #require(await traced.pid())
            #expect(await traced.wait(for: "crashed") != nil)
            let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map(String.init)
            // /proc/PID/stat: pid (comm) state ppid pgrp session tty_nr …
            let stat = lines[0].split(separator: ")").last?.split(separator: " ").map(String.init) ?? []
            #expect(stat[2] == String(pid) && stat[3] == String(pid), "its own group and session: \(stat)")
            #expect(stat[4] == "0", "no controlling terminal")
            #expect(lines[1] == "/dev/null")
            // Each descriptor the shell holds and what it is (`ls -l`: "… 3 -> socket:[N]"): /dev/null, its two
            // sockets (its output and errors' one, also saved by the shell's redirection, and the protocol's) and the
            // report it writes: nothing else of the host's.
            let listing = lines.dropFirst(2).prefix { $0 != "end" }
            let targets = listing.compactMap { line in line.range(of: " -> ").map { String(line[$0.upperBound...]) } }
            #expect(targets.count >= 4, "\(listing)")
            #expect(Set(targets.filter { $0.hasPrefix("socket:") }).count == 2, "\(listing)")
            #expect(
                targets.allSatisfy { $0.hasPrefix("socket:") || $0 == "/dev/null" || $0.hasSuffix("/report") },
                "\(listing)")
            let rest = Array(lines.dropFirst(2 + listing.count + 1))
            #expect(rest.first == "folder gone", "an empty folder no one can add to")
            let environment = Set(rest.dropFirst().map { String($0.split(separator: "=").first ?? "") })
            #expect(environment.contains("LANG") && environment.contains("SWIFT_BACKTRACE"))
            #expect(!environment.contains("COURIER_TOKEN") && !environment.contains("HOME"))
        }

        @Test func aHelperHoldingTheWorkersSocketsNeitherHidesItsEndNorOutlivesIt() async throws {
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let helper = folder.appendingPathComponent("helper").path
            // The helper inherits descriptors 1, 2 and 3: before, the host read on until it ended (a 16 s run).
            let (pool, _, traced, _) = Self.pool("sleep 300 & echo $! > \(helper); sleep 0.2; exit 3")
            defer { pool.close() }
            let line = try #require(await traced.wait(for: "crashed"))
            #expect(line.hasSuffix("Probe's worker exited with status 3"))
            let pid = try #require(
                pid_t(
                    try String(contentsOfFile: helper, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
            )
            // Ended with the worker's group (a zombie until whoever adopted it reaps it, then gone).
            var state = "running"
            for _ in 0..<1000 {
                let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
                state =
                    stat.isEmpty ? "gone" : String(stat.split(separator: ")").last?.split(separator: " ").first ?? "")
                if state == "gone" || state == "Z" { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(state == "gone" || state == "Z", "the helper is \(state)")
        }

        @Test func aWorkerStopsAndContinuesWithTheHost() async throws {
            let (pool, _, traced, _) = Self.pool("while :; do :; done")
            defer { pool.close() }
            let pid = try #require(await traced.pid())
            func state() -> String {
                let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
                return String(stat.split(separator: ")").last?.split(separator: " ").first ?? "")
            }
            func until(_ wanted: (String) -> Bool) async throws -> String {
                for _ in 0..<1000 where !wanted(state()) { try await Task.sleep(for: .milliseconds(10)) }
                return state()
            }
            pool.stopAll()
            #expect(try await until { $0 == "T" } == "T")
            pool.continueAll()
            #expect(try await until { $0 != "T" } == "R")
        }

    #endif

    @Test func aWorkerThatClosesItsChannelIsEndedAndThatIsTheReasonNotAKillFromOutside() async throws {
        let (pool, _, traced, _) = Self.pool("exec 3>&-; sleep 300")
        defer { pool.close() }
        let line = try #require(await traced.wait(for: "crashed"))
        #expect(line.hasSuffix("Probe's code closed its channel to the host; its worker was ended"))
    }

    @Test func aFetchItsModuleDoesNotDeclareIsRefusedSaidAndNeverReachesTheBackend() async throws {
        // A worker that answers its first call with a fetch of another squad's endpoint, then waits.
        let fetch = ShellWorker.write(.fetch(id: 1, call: 1, segments: ["orders", "1234", "payment.json"]))
        let (pool, kernel, traced, backend) = Self.pool(
            ShellWorker.greeting() + ShellWorker.awaitCall + fetch + "sleep 300",
            reach: ["Probe": DeclaredReach(["probes/{probe}.json"])])
        defer { pool.close() }
        let refusal = "Probe's code fetched orders/1234/payment.json, which Probe does not declare; refused"
        #expect(await kernel.load(within: .seconds(600), on: SystemClock()) == .failure(Failure(refusal)))
        #expect(await traced.wait(for: "worker Probe: \(refusal)") != nil)
        #expect(backend.asked.isEmpty)
    }
}
