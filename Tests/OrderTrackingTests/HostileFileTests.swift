import CoreTesting
import Foundation
import Testing

/// Hostile files and streams around a run: each is one clear line on stderr and a documented exit code,
/// never a trap, a hang or a misleading reason.
@Suite struct HostileFileTests {
    let scratch = try! TemporaryDirectory()

    @Test(arguments: [
        (#"{"at_ms": 1e19, "endpoint": "orders/1234/screen.json", "status": 404}"#, "\"at_ms\" must be a whole number"),
        (#"{"at_ms": 0, "endpoint": "orders/1234/screen.json", "status": 1e30}"#, "\"status\" must be an HTTP status"),
        (#"{"at_ms": -1, "endpoint": "orders/1234/screen.json", "status": 404}"#, "\"at_ms\" must be a whole number"),
        (#"{"at_ms": 0.5, "endpoint": "orders/1234/screen.json", "status": 404}"#, "\"at_ms\" must be a whole number"),
        (#"{"at_ms": 0, "endpoint": "orders/1234/screen.json", "status": 200}"#, "status 200 needs a \"body_base64\""),
        (
            #"{"at_ms": 0, "endpoint": "orders/1234/screen.json", "status": 404, "status": 200}"#,
            #"the key "status" is repeated in one object; keep one (byte 67)"#
        ),
    ])
    func replayNumbersOutOfRangeAreNamedWithTheirLine(line: String, reason: String) async throws {
        let file = scratch.url.appendingPathComponent("replay-\(UUID().uuidString).jsonl")
        try Data(("\n" + line + "\n").utf8).write(to: file)
        let run = try await CLI.run(["1234", "--replay", file.path])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(
            run.stderr.hasPrefix("order-tracking: --replay '\(file.path)' line 2 is not a recorded answer: \(reason)"))
        #expect(run.stdout == "")
    }

    /// A recording and the analytics log in one file would interleave answers and events: refused, however the
    /// two paths are spelled (relative, absolute, through a link).
    @Test func recordAndAnalyticsOnOneFileAreRefused() async throws {
        let file = scratch.url.appendingPathComponent("both-\(UUID().uuidString).jsonl")
        let link = scratch.url.appendingPathComponent("link-\(UUID().uuidString).jsonl")
        try Data().write(to: file)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        for (record, analytics) in [
            (file.path, file.path), (file.path, link.path),
            (file.path, scratch.url.path + "/./" + file.lastPathComponent),
        ] {
            let run = try await CLI.run(["1234", "--record", record, "--analytics", analytics])
            #expect(run.status == 64, "\(run.stderr)")
            #expect(
                run.stderr.hasPrefix("order-tracking: --record and --analytics name the same file"), "\(run.stderr)")
        }
        #expect(try await CLI.run(["1234", "--replay", file.path, "--analytics", file.path]).status == 64)
    }

    /// Recordings hold payment and feed data: owner-only, also when an older file was readable by others.
    @Test func recordingsAreOwnerOnly() async throws {
        let fresh = scratch.url.appendingPathComponent("rec-\(UUID().uuidString).jsonl").path
        let old = scratch.url.appendingPathComponent("old-\(UUID().uuidString).jsonl").path
        #expect(FileManager.default.createFile(atPath: old, contents: nil, attributes: [.posixPermissions: 0o644]))
        for path in [fresh, old] {
            #expect(try await CLI.run(["1234", "--record", path]).status == 0)
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(path): \(String(mode ?? 0, radix: 8))")
        }
    }

    @Test(arguments: ["--record", "--analytics"])
    func aPipeNobodyReadsIsRefusedAtOnce(option: String) async throws {
        let fifo = scratch.url.appendingPathComponent("fifo-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = try await CLI.run(["1234", option, fifo], limit: .seconds(10))
        #expect(run.status == 64)
        #expect(run.stderr.contains("\(option) '\(fifo)' cannot be written: it is a pipe nobody is reading"))
        #expect(run.stdout == "")
    }

    @Test func aClosedStdoutIsSaidPlainly() async throws {
        // `>&-`: closed, not full. Through the shell, which is what closes it.
        let run = try await ProcessRunner.run(
            "sh", ["-c", "exec \"$0\" 1234 >&-", CLI.binary], environment: CLI.environment, limit: .seconds(20))
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "order-tracking: standard output is closed; run it with stdout open (a terminal, a pipe or > FILE)\n"
        )
    }
}
