import CoreTesting
import Foundation
import HostIO

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Process start-up figures: `order-tracking`'s time to its first complete skeleton frame and its whole run,
/// beside hello-world executables built the usual way (`swiftc -O`, the baseline) and with a static Swift
/// runtime (a reference, as the shipping order-tracking is static). Runs are interleaved so drift hits all alike.
enum FirstPaint {
    struct Figures: Sendable {
        var skeleton: Sample
        var whole: Sample
        var hello: Sample
        var staticHello: Sample
        /// Each round's order-tracking time ÷ the same round's hello world. Rounds are a few milliseconds
        /// apart, so a neighbour's load on this machine moves both sides of a ratio alike.
        var skeletonRatio: Sample
        var wholeRatio: Sample
        var wholeRatioVersusStatic: Sample
        /// `order-tracking 1234`'s whole run with each squad's code in its worker ÷ with all of it in process
        /// (`COURIER_IN_PROCESS=1`), each round's pair side by side: what isolation costs (goal ≤ 2.0).
        var isolatedRatio: Sample
        /// The same for 9012, whose Payment endpoint takes 1.5 s: a screen that waits for its data (goal ≤ 1.05).
        var isolatedSlowRatio: Sample
    }

    static func measure(orderTracking: URL, runs: Int) throws -> Figures {
        let folder = try TemporaryDirectory()
        let hello = try buildHelloWorld(static: false, in: folder.url)
        let staticHello = try buildHelloWorld(static: true, in: folder.url)
        let path = orderTracking.path
        // One untimed round first: page cache and CPU frequency settle before anything counts.
        var times: [[Double]] = [[], [], [], [], [], [], []]
        let inProcess = ["COURIER_IN_PROCESS=1"]
        for round in 0...runs {
            var sample = [
                try spawnTime(hello, [], until: nil),
                try spawnTime(staticHello, [], until: nil),
                try spawnTime(path, ["1234", "--plain"], until: nil),
                try spawnTime(path, ["9012", "--plain", "--trace"], until: "account: start → loading"),
                try spawnTime(path, ["1234", "--plain"], until: nil, adding: inProcess),
            ]
            // 9012 takes 1.5 s a run: every fourth round, which still gives a median of several pairs.
            if round % 4 == 1 {
                sample += [
                    try spawnTime(path, ["9012", "--plain"], until: nil),
                    try spawnTime(path, ["9012", "--plain"], until: nil, adding: inProcess),
                ]
            }
            if round > 0 { for (index, time) in sample.enumerated() { times[index].append(time) } }
        }
        func ratios(_ top: Int, _ bottom: Int) -> Sample { Sample(zip(times[top], times[bottom]).map { $0 / $1 }) }
        return Figures(
            skeleton: Sample(times[3]), whole: Sample(times[2]), hello: Sample(times[0]),
            staticHello: Sample(times[1]), skeletonRatio: ratios(3, 0), wholeRatio: ratios(2, 0),
            wholeRatioVersusStatic: ratios(2, 1), isolatedRatio: ratios(2, 4), isolatedSlowRatio: ratios(5, 6))
    }

    /// Seconds from `posix_spawn` to exit, or to the first stderr line containing `marker`. Spawned directly
    /// (not through Foundation's `Process`), so the harness adds as little as possible to both sides of a ratio.
    /// `adding` puts variables into the run's environment.
    static func spawnTime(_ executable: String, _ arguments: [String], until marker: String?, adding: [String] = [])
        throws -> Double
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var pipeEnds: [Int32] = [-1, -1]
        if marker != nil {
            guard pipe(&pipeEnds) == 0 else { throw BenchmarkError(message: "pipe failed: errno \(errno)") }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
            posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let sanitizers = ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }
        let environment =
            ["PATH=/usr/bin:/bin", "COLUMNS=60", "HOME=\(NSTemporaryDirectory())"]
            + sanitizers.map { "\($0.key)=\($0.value)" } + adding
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchmarkError(message: "cannot start \(executable): errno \(spawned)") }
        var reached: Double?
        if let marker {
            close(pipeEnds[1])
            var seen: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(pipeEnds[0], &buffer, buffer.count)
                if count <= 0 { break }
                seen.append(contentsOf: buffer[0..<count])
                if String(decoding: seen, as: UTF8.self).contains(marker) {
                    reached = (ContinuousClock.now - start).seconds
                    // Done: the rest of the run (9012 waits 1.5 s for a card) would leave the CPU idle and
                    // slow down whatever is timed next.
                    kill(pid, SIGKILL)
                    break
                }
            }
            close(pipeEnds[0])
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let whole = (ContinuousClock.now - start).seconds
        guard marker != nil || status == 0 else {
            throw BenchmarkError(
                message: "\(executable) \(arguments.joined(separator: " ")) exited with status \(status)")
        }
        guard let time = marker == nil ? whole : reached else {
            throw BenchmarkError(message: "\(executable) never printed '\(marker ?? "")'")
        }
        return time
    }

    /// A hello-world Swift executable built with the same optimisation as this benchmark.
    static func buildHelloWorld(static isStatic: Bool, in folder: URL) throws -> String {
        let source = folder.appendingPathComponent("main.swift")
        let binary = folder.appendingPathComponent(isStatic ? "hello-static" : "hello")
        try Data("print(\"hello, world\")\n".utf8).write(to: source)
        #if DEBUG
            let optimisation = "-Onone"
        #else
            let optimisation = "-O"
        #endif
        let process = try ChildProcess.startForTest(
            ["swiftc", optimisation] + (isStatic ? ["-static-stdlib"] : []) + [source.path, "-o", binary.path],
            output: FileHandle.standardError, error: FileHandle.standardError)
        guard process.wait() == 0 else {
            throw BenchmarkError(message: "cannot build hello world with swiftc")
        }
        return binary.path
    }
}
