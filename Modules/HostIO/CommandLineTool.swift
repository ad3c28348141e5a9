import ArgumentParsing
import Core

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// How a Courier command-line tool runs, the same for each: a closed stdout refused at once, a usage error as one
/// line that ends with where to read the usage (exit 64), a command's run under signal handling and ending when its output
/// fails, and an exit status that says when a write failed.
public struct CommandLineTool: Sendable {
    /// The tool's name, as its messages start ("order-tracking: …").
    public let name: String
    /// The fewest open files the tool runs with: below it a run would fail at a random moment (Dispatch traps
    /// the process when it cannot open a file), so it is refused at the start in one line instead.
    public let descriptors: Int

    /// A tool called `name` that needs `descriptors` open files at least (0: no floor).
    public init(name: String, descriptors: Int = 0) { (self.name, self.descriptors) = (name, descriptors) }

    /// This process's limit on open files (`ulimit -n`), or nil when it has none it can tell.
    public static func descriptorLimit() -> Int? {
        var limit = rlimit()
        #if canImport(Darwin)
            let got = getrlimit(RLIMIT_NOFILE, &limit)
        #else
            let got = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        #endif
        guard got == 0, limit.rlim_cur < rlim_t(Int32.max) else { return nil }
        return Int(limit.rlim_cur)
    }

    /// The process's whole run: `body` on the process's streams (`closed`: the standard descriptors that were
    /// closed at start, from ``StandardStreams/reserveDescriptors()``), and the exit status.
    public func main(
        closed: Set<Int32>, _ body: (StandardStreams) async throws(UsageError) -> Int32
    ) async -> Int32 {
        let streams = StandardStreams()
        if closed.contains(STDOUT_FILENO) {
            streams.err("\(name): standard output is closed; run it with stdout open (a terminal, a pipe or > FILE)")
            return 1
        }
        if let limit = Self.descriptorLimit(), limit < descriptors {
            streams.err(
                "\(name): too many open files: it needs \(descriptors) and ulimit -n allows \(limit); "
                    + "raise it (ulimit -n \(descriptors)) and run it again")
            return 1
        }
        var status: Int32
        do { status = try await body(streams) } catch {
            streams.err(error.line(tool: name))
            status = 64
        }
        return streams.exitStatus(status, tool: name)
    }

    /// One command's run: under signal handling (Ctrl-C 130, SIGTERM 143, SIGHUP 129, the terminal restored; off
    /// for in-process tests, whose signals are the runner's) and ending when `streams`' output fails. A usage
    /// error passes through; anything else thrown is fatal (1).
    public static func running(
        _ terminal: Terminal, streams: StandardStreams, signals: Bool,
        _ body: @escaping @Sendable () async throws -> Int32
    ) async throws(UsageError) -> Int32 {
        do {
            return try await withSignalHandling(terminal, enabled: signals) {
                try await streams.endingWhenOutputFails(body)
            }
        } catch let error as UsageError { throw error } catch { return 1 }
    }
}
