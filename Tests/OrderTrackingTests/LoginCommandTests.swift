import CoreTesting
import Foundation
import HostIO
import Testing

@Suite struct LoginCommandTests {
    /// Removed with the suite instance: no test leaves a folder behind.
    let scratch = try! TemporaryDirectory()

    func dataDirectory() -> URL { scratch.url.appendingPathComponent("login-\(UUID().uuidString)") }

    static let reference = """
        Logging in...
        Logged in successfully...
        Fetching user profile with id 1234...
        Fetching user feed with id 1234...
        Storing user with id 1234...

        """

    @Test func theDemoUserPrintsExactlyTheFiveReferenceLines() async throws {
        let directory = dataDirectory()
        let run = await InProcess.run(["login", "1234", "--data-dir", directory.path])
        #expect(run.status == 0)
        #expect(run.stdout == Self.reference)
        #expect(run.stderr == "")
        let verbose = await InProcess.run(["login", "1234", "--data-dir", directory.path, "--verbose"])
        #expect(
            verbose.stdout == Self.reference + """
                Profile: Sara Al-Harbi, Riyadh
                Feed: 3 items
                Stored user at \(directory.path)/user.json

                """)
        let tabs = await InProcess.run(["tabs", "--data-dir", directory.path, "--select", "feed"])
        #expect(tabs.stdout.hasPrefix("Tracking   Profile   ▸ Feed (3)   Sign out\n"))
        let logout = await InProcess.run(["logout", "--data-dir", directory.path])
        #expect(logout.stdout == "Logged out: removed \(directory.path)/user.json\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("user.json").path))
        #expect(
            await InProcess.run(["logout", "--data-dir", directory.path]).stdout == "Not logged in; nothing to clear\n")
    }

    @Test func anUnknownUserPrintsExactlyTheFailureLinesAndClearsStoredData() async throws {
        let directory = dataDirectory()
        _ = await InProcess.run(["login", "1234", "--data-dir", directory.path])
        let run = await InProcess.run(["login", "9999", "--data-dir", directory.path])
        #expect(run.status == 1)
        #expect(run.stdout == "Logging in...\nLogged in unsuccessfully...\nClear data because of error userNotFound\n")
        #expect(run.stderr == "login failed: no such user; check the id (the demo user is 1234)\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("user.json").path))
        let wrong = await InProcess.run(["login", "5555", "--password", "nope", "--data-dir", directory.path])
        #expect(wrong.stdout.hasSuffix("Clear data because of error invalidCredentials\n"))
    }

    @Test func theTrackingScreenShowsWhoIsSignedIn() async throws {
        let directory = dataDirectory()
        _ = await InProcess.run(["login", "1234", "--data-dir", directory.path])
        let before = await InProcess.run(["1234"])
        #expect(before.stdout.contains("Not signed in"))
        let run = await InProcess.run(["1234", "--data-dir", directory.path])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Sara Al-Harbi") && !run.stdout.contains("Not signed in"), "\(run.stdout)")
        let tabs = await InProcess.run(["tabs", "--select", "profile", "--data-dir", "/nonexistent-courier"])
        #expect(tabs.status == 64)
        #expect(tabs.stderr.contains("tab 'profile' is not available now; available: tracking"))
    }

    /// `--record` while signed in: the tabs fetch through the recording backend, so a replay draws the same bar.
    @Test func aRecordingWhileSignedInHoldsTheTabsFetchesAndReplaysTheSameBar() async throws {
        let directory = dataDirectory()
        _ = await InProcess.run(["login", "1234", "--data-dir", directory.path])
        let file = directory.appendingPathComponent("run.jsonl").path
        let recorded = await InProcess.run(["1234", "--data-dir", directory.path, "--record", file])
        #expect(recorded.stdout.contains("Feed (3)"))
        let lines = try String(contentsOfFile: file, encoding: .utf8)
        #expect(lines.contains(#""endpoint":"users/1234/feed.json""#), "the tabs fetch through the recording")
        let replayed = await InProcess.run(["1234", "--data-dir", directory.path, "--replay", file])
        #expect(replayed.stdout == recorded.stdout)
    }

    @Test func concurrentLoginsAndLogoutsAllSucceedAndTheRecordStaysWhole() async throws {
        let directory = dataDirectory()
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let command = index % 5 == 4 ? ["logout"] : ["login", "1234"]
                    return try await CLI.run(command + ["--data-dir", directory.path], limit: .seconds(60)).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 0, count: 20))
        let last = try await CLI.run(["login", "1234", "--data-dir", directory.path])
        #expect(last.status == 0)
        let record = try JSONSerialization.jsonObject(
            with: Data(contentsOf: directory.appendingPathComponent("user.json")))
        #expect((record as? [String: Any])?["userID"] as? String == "1234")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["user.json"])
    }

    /// SIGKILL at random moments during login (and so during the Storage write) must never leave a torn record.
    @Test func killingTheWriterNeverLeavesATornFile() async throws {
        let directory = dataDirectory()
        let record = directory.appendingPathComponent("user.json")
        var killed = 0
        for round in 0..<100 {
            let process = try ChildProcess.startForTest(
                [CLI.binary, "login", "1234", "--data-dir", directory.path], environment: CLI.environment)
            try await Task.sleep(for: .milliseconds(round % 25))
            if process.endedStatus() == nil {
                process.send(SIGKILL)
                killed += 1
                _ = process.wait()
            }
            if let data = FileManager.default.contents(atPath: record.path) {
                let object = try JSONSerialization.jsonObject(with: data) as? [String: String]
                #expect(object == ["userID": "1234", "name": "Sara Al-Harbi"], "round \(round): torn record \(data)")
            }
        }
        #expect(killed > 20, "many rounds should kill a running writer (killed \(killed))")
    }

    @Test(arguments: [
        (
            ["--data-dir", ""], [String: String](), 64,
            "order-tracking: --data-dir is empty; give a folder, e.g. --data-dir ~/.courier (see 'order-tracking --help')\n"
        ),
        (
            [], ["HOME": "", "XDG_DATA_HOME": ""], 64,
            "order-tracking: nowhere to keep the signed-in user: HOME and XDG_DATA_HOME are empty; pass --data-dir DIR\n"
        ),
        (
            ["--data-dir", "/etc/passwd"], [:], 2,
            "Hook 'Storage' failed: /etc/passwd is a file, not a folder; pass a folder with --data-dir\n"
        ),
    ])
    func anUnusableDataFolderIsOneLineOnStderrAndNothingIsWritten(
        flags: [String], environment: [String: String], status: Int32, message: String
    ) async throws {
        let run = try await CLI.run(["login", "1234"] + flags, extra: environment)
        #expect(run.status == status)
        #expect(run.stderr == message)
        #expect(!run.stdout.contains("Error Domain"))
        #expect(!FileManager.default.fileExists(atPath: "/user.json"))
    }
}
