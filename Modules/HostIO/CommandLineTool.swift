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

    /// A tool called `name`.
    public init(name: String) { self.name = name }

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
