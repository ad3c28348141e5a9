import CoreTesting
import Foundation
import HostIO
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A child started without Foundation's `Process`: what squad and the tests rely on from it.
@Suite struct ChildProcessTests {
    /// Runs `command` with its output in a file; returns its status and what it printed.
    func run(_ command: [String], environment: [String: String]? = nil, directory: String? = nil) throws
        -> (status: Int32, output: String)
    {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("out").path
        let output = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        let child = try ChildProcess.start(
            command, environment: environment, directory: directory, output: output, error: output)
        close(output)
        let status = child.wait()
        return (status, (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
    }

    @Test func theStatusIsTheShellsAlsoForASignal() throws {
        #expect(try run(["sh", "-c", "exit 3"]).status == 3)
        #expect(try run(["sh", "-c", "kill -TERM $$"]).status == 128 + SIGTERM)
    }

    @Test func aMissingCommandSaysWhichAndWhy() throws {
        let name = "no-such-command-\(UUID().uuidString)"
        #expect(throws: ChildProcessError(message: "cannot run \(name): No such file or directory")) {
            try run([name])
        }
    }

    @Test func theChildRunsInTheFolderGivenWithTheEnvironmentGiven() throws {
        let folder = try TemporaryDirectory()
        let here = folder.url.resolvingSymlinksInPath().path
        let run = try run(["sh", "-c", #"pwd -P; echo "[$ONLY][$HOME]""#], environment: ["ONLY": "1"], directory: here)
        #expect(run.output == "\(here)\n[1][]\n")
        #expect(throws: ChildProcessError(message: "cannot run sh in \(here)/missing: it is not a folder")) {
            try self.run(["sh", "-c", "true"], directory: here + "/missing")
        }
    }

    /// A descriptor this process holds (here one without close-on-exec) is not the child's: a pipe's writer
    /// left open in another child would keep its reader waiting forever.
    @Test func noOtherDescriptorIsInherited() throws {
        let folder = try TemporaryDirectory()
        let held = open(folder.url.appendingPathComponent("held").path, O_WRONLY | O_CREAT, 0o600)
        defer { close(held) }
        #expect(held > 2)
        #expect(try run(["sh", "-c", "true >&\(held)"]).status != 0)
        #expect(try run(["sh", "-c", "true >&2"]).status == 0)
    }

    /// The child starts with no signal blocked, whatever the thread that started it blocks (a CLI's signal
    /// handling blocks them): SIGTERM ends it at once.
    @Test func blockedSignalsAreNotTheChilds() throws {
        var term = sigset_t()
        sigemptyset(&term)
        sigaddset(&term, SIGTERM)
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, &term, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        #expect(try run(["sh", "-c", "kill -TERM $$; sleep 5"]).status == 128 + SIGTERM)
    }
}
