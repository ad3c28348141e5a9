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
    /// arrives after its content loads), then signed out again; SIGTERM ends it with 143.
    @Test func watchFollowsBadgesAndSignInAndOut() async throws {
        let directory = try TemporaryDirectory()
        let output = Pipe()
        let process = try ChildProcess.startForTest(
            [CLI.binary, "tabs", "--watch", "--data-dir", directory.url.path], environment: CLI.environment,
            output: output.fileHandleForWriting)
        try output.fileHandleForWriting.close()
        let seen = Locked("")
        let reader = Thread {
            while true {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                seen.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }
        reader.start()
        func waitFor(_ text: String) async -> Bool {
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                if seen.withLock({ $0.contains(text) }) { return true }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return false
        }
        #expect(await waitFor("  ▸ Tracking\n"))
        _ = try await CLI.run(["login", "1234", "--data-dir", directory.url.path])
        #expect(await waitFor("▸ Tracking   Profile   Feed (3)   Sign out\n"))
        _ = try await CLI.run(["logout", "--data-dir", directory.url.path])
        let signedOut = await waitFor("Sign out\n")
        let trackingAlone = await waitFor("  ▸ Tracking\n")
        #expect(signedOut && trackingAlone)
        let deadline = ContinuousClock.now + .seconds(20)
        while seen.withLock({ $0.components(separatedBy: "  ▸ Tracking\n").count }) < 3
            && ContinuousClock.now < deadline
        {
            try? await Task.sleep(for: .milliseconds(50))
        }
        process.send(SIGTERM)
        #expect(process.wait() == 143)
        let lines = seen.withLock { $0 }.split(separator: "\n").map { String($0.dropFirst(10)) }
        #expect(lines.first == "▸ Tracking")
        #expect(lines.contains("▸ Tracking   Profile   Feed (3)   Sign out"))
        #expect(lines.last == "▸ Tracking", "\(lines)")
        #expect(seen.withLock { $0 }.split(separator: "\n").allSatisfy { $0.dropFirst(2).hasPrefix(":") })
    }
}
