import Core
import CoreTesting
import Foundation
import HostIO
import Testing

/// `tabs`: a tab that performs an action (Sign out), and `--watch`, which follows badges and sign-in/out made by
/// other processes on the same data folder.
@Suite struct TabsCommandTests {
    @Test func theSignOutTabSignsTheUserOutInsteadOfShowingAScreen() async throws {
        let directory = try TemporaryDirectory()
        _ = await InProcess.run(["login", "1234", "--data-dir", directory.url.path])
        let run = await InProcess.run(["tabs", "--select", "signout", "--data-dir", directory.url.path])
        #expect(run.status == 0)
        #expect(run.stdout == "Signed out user 1234 (removed \(directory.url.path)/user.json).\n")
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("user.json").path))
        let again = await InProcess.run(["tabs", "--select", "signout", "--data-dir", directory.url.path])
        #expect(again.status == 64 && again.stderr.contains("tab 'signout' is not available now; available: tracking"))
    }

    /// Outside a terminal each change is one line headed by its time: signed out, then signed in (the Feed badge
    /// arrives after its content loads), then signed out again, each noticed at the watch's next look on its
    /// runtime's clock; SIGTERM ends it with 143. Each step waits for what was written, woken by each arrival
    /// (no polling, no wall time in the assertion: a limit only ends a hang, by ending the watch); nothing here
    /// holds one of the test pool's threads: the pipe is read and the process waited for on threads of their own.
    @Test func watchFollowsBadgesAndSignInAndOut() async throws {
        let directory = try TemporaryDirectory()
        let output = Pipe()
        let process = try ChildProcess.startForTest(
            [CLI.binary, "tabs", "--watch", "--data-dir", directory.url.path], environment: CLI.environment,
            output: output.fileHandleForWriting)
        try output.fileHandleForWriting.close()
        let seen = Locked("")
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let reader = Thread {
            while true {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return arrived.finish() }
                seen.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
                arrived.yield()
            }
        }
        reader.start()
        let hang = Task {
            try? await Task.sleep(for: .seconds(120))
            if !Task.isCancelled { process.send(SIGTERM) }
        }
        var next = arrivals.makeAsyncIterator()
        /// Whether the output came to hold `text` `times` times before the watch's output ended.
        func waitFor(_ text: String, times: Int = 1) async -> Bool {
            let holds = { seen.withLock { $0.components(separatedBy: text).count - 1 } >= times }
            while !holds() { if await next.next() == nil { return holds() } }
            return true
        }
        let alone = "  ▸ Tracking\n"
        #expect(await waitFor(alone), "\(seen.withLock { $0 })")
        _ = try await CLI.run(["login", "1234", "--data-dir", directory.url.path])
        #expect(await waitFor("▸ Tracking   Profile   Feed (3)   Sign out\n"), "\(seen.withLock { $0 })")
        _ = try await CLI.run(["logout", "--data-dir", directory.url.path])
        #expect(await waitFor(alone, times: 2), "\(seen.withLock { $0 })")
        hang.cancel()
        process.send(SIGTERM)
        #expect(await process.finish().status == 143)
        let lines = seen.withLock { $0 }.split(separator: "\n").map { String($0.dropFirst(10)) }
        #expect(lines.first == "▸ Tracking")
        #expect(lines.contains("▸ Tracking   Profile   Feed (3)   Sign out"))
        #expect(lines.last == "▸ Tracking", "\(lines)")
        #expect(seen.withLock { $0 }.split(separator: "\n").allSatisfy { $0.dropFirst(2).hasPrefix(":") })
    }
}
