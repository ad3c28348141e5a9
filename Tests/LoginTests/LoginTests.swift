import Core
import CoreTesting
import Foundation
import Login
import Testing

/// Records what hooks did, in order.
final class Journal: Sendable {
    private let lines = Locked<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

struct RecordingHook: PostLoginSuccessPlugin, PostLoginFailurePlugin {
    enum Behaviour: Sendable { case succeed, throwError, hang }
    let name: String
    let behaviour: Behaviour
    let journal: Journal

    func announcement(for session: LoginSession) -> String { "\(name) starts for \(session.userID)" }

    func didLogIn(_ session: LoginSession) async throws -> String {
        journal.add("\(name) ran")
        switch behaviour {
        case .succeed: return "\(name) done"
        case .throwError: throw Failure("\(name) exploded")
        case .hang:
            try await Task.sleep(for: .seconds(3600))
            return "never"
        }
    }

    func didFailLogIn(userID: String, error: LoginError) async throws -> String {
        journal.add("\(name) cleaned")
        return "\(name) saw \(error.name)"
    }
}

let accounts: [String: CannedAnswer] = [
    "users/1234/account.json": .json(#"{"id": "1234", "name": "Sara"}"#),
    "users/5555/account.json": .json(#"{"id": "5555", "name": "Locked", "password": "courier"}"#),
    "users/7/account.json": .fault(.httpStatus(503, path: "users/7/account.json")),
]

/// What an authenticator said, by channel: the reference lines, the findings and the warnings.
struct Channels {
    let said = Journal()
    let noted = Journal()
    let warned = Journal()
}

/// An authenticator on the canned accounts. Its deadlines run on a virtual clock nobody advances unless a test
/// passes another clock: a starved run (a sanitizer, a busy machine) once missed a real 5 s deadline on a
/// fetch that answers at once.
func authenticator(
    _ container: LoginContainer, deadline: Duration = .seconds(5), clock: any CourierClock = VirtualClock()
) -> (Authenticator, Channels) {
    let channels = Channels()
    let backend = CannedBackend(accounts, clock: VirtualClock())
    let authenticator = Authenticator(
        backend: backend, container: container, clock: clock, hookDeadline: deadline, say: { channels.said.add($0) },
        note: { channels.noted.add($0) }, warn: { channels.warned.add($0) })
    return (authenticator, channels)
}

@Suite struct LoginContainerTests {
    @Test func successHooksRunInRegistrationOrderThenReportWhatTheyFound() async throws {
        let container = LoginContainer()
        let journal = Journal()
        for name in ["Profile", "Feed", "Storage"] {
            try container.register(success: RecordingHook(name: name, behaviour: .succeed, journal: journal), id: name)
        }
        let (auth, output) = authenticator(container)
        let outcome = await auth.logIn(userID: "1234", password: nil)
        #expect(outcome.session == LoginSession(userID: "1234", name: "Sara"))
        #expect(
            output.said.all == [
                "Logging in...", "Logged in successfully...", "Profile starts for 1234", "Feed starts for 1234",
                "Storage starts for 1234",
            ])
        #expect(output.noted.all == ["Profile done", "Feed done", "Storage done"])
        #expect(output.warned.all.isEmpty)
        #expect(journal.all == ["Profile ran", "Feed ran", "Storage ran"])
    }

    @Test func aThrowingHookAndAHangingHookAreReportedAndDoNotStopTheOthers() async throws {
        let container = LoginContainer()
        let journal = Journal()
        try container.register(success: RecordingHook(name: "A", behaviour: .throwError, journal: journal), id: "A")
        try container.register(success: RecordingHook(name: "B", behaviour: .hang, journal: journal), id: "B")
        try container.register(success: RecordingHook(name: "C", behaviour: .succeed, journal: journal), id: "C")
        // The hanging hook's deadline passes on the virtual clock, moved by the test once everything waits: on the
        // wall clock (200 ms, as this test once ran) a sanitized build on a busy machine missed the account's own
        // deadline and the login failed before any hook ran.
        let clock = VirtualClock()
        let (auth, output) = authenticator(container, deadline: .milliseconds(200), clock: clock)
        let outcome = try #require(await clock.drive { await auth.logIn(userID: "1234", password: nil) })
        #expect(journal.all == ["A ran", "B ran", "C ran"])
        #expect(outcome.hookProblems == ["Hook 'A' failed: A exploded", "Hook 'B' did not finish within 0.2s"])
        #expect(output.noted.all == ["C done"])
        #expect(output.warned.all == ["Hook 'A' failed: A exploded", "Hook 'B' did not finish within 0.2s"])
    }

    @Test(arguments: [
        ("9999", nil as String?, LoginError.userNotFound), ("5555", "wrong", .invalidCredentials),
        ("5555", nil, .invalidCredentials),
        ("7", nil, .backendUnavailable("users/7/account.json: server answered HTTP 503")),
    ])
    func failuresRunTheFailureHooksWithATypedError(user: String, password: String?, expected: LoginError) async throws {
        let container = LoginContainer()
        let journal = Journal()
        try container.register(
            failure: RecordingHook(name: "Storage", behaviour: .succeed, journal: journal), id: "Storage")
        try container.register(
            success: RecordingHook(name: "Never", behaviour: .succeed, journal: journal), id: "Never")
        let (auth, output) = authenticator(container)
        let outcome = await auth.logIn(userID: user, password: password)
        #expect(outcome.error == expected)
        #expect(output.said.all == ["Logging in...", "Logged in unsuccessfully...", "Storage saw \(expected.name)"])
        #expect(journal.all == ["Storage cleaned"])
    }

    /// A login whose task is cancelled (Ctrl-C) while the account is asked for neither succeeded nor failed: no
    /// hook runs (Storage's failure hook would clear the stored user) and nothing is said after "Logging in...".
    @Test func aLoginCancelledWhileAskingRunsNoHookAndSaysNothingMore() async throws {
        let container = LoginContainer()
        let journal = Journal()
        try container.register(
            failure: RecordingHook(name: "Storage", behaviour: .succeed, journal: journal), id: "Storage")
        try container.register(
            success: RecordingHook(name: "Profile", behaviour: .succeed, journal: journal), id: "Profile")
        let clock = VirtualClock()
        let channels = Channels()
        let auth = Authenticator(
            backend: CannedBackend(["users/8/account.json": .hang], clock: clock), container: container,
            clock: clock, say: { channels.said.add($0) }, warn: { channels.warned.add($0) })
        let login = clock.start { await auth.logIn(userID: "8", password: nil) }
        await clock.settle()
        login.cancel()
        let outcome = await login.value
        #expect(outcome.session == nil && outcome.error == nil)
        #expect(journal.all.isEmpty, "no hook ran")
        #expect(channels.said.all == ["Logging in..."])
        #expect(channels.warned.all.isEmpty)
    }

    @Test func theRightPasswordLogsIn() async throws {
        let (auth, _) = authenticator(LoginContainer())
        #expect(await auth.logIn(userID: "5555", password: "courier").session?.name == "Locked")
    }

    @Test func duplicateRegistrationIsAnError() throws {
        let container = LoginContainer()
        let hook = RecordingHook(name: "P", behaviour: .succeed, journal: Journal())
        try container.register(success: hook, id: "Profile")
        #expect(throws: PluginError.duplicate(id: "Profile", point: "login success hooks")) {
            try container.register(success: hook, id: "Profile")
        }
        try container.register(failure: hook, id: "Profile")
    }

    /// Resolving must stay internal to Login: a client module that tries it must not compile.
    @Test func resolvingIsNotPublic() async throws {
        let modules = ProcessRunner.productsDirectory.appendingPathComponent("Modules").path
        func typecheck(_ body: String) async throws -> ProcessResult {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "client-\(UUID().uuidString).swift")
            try Data("import Login\nlet container = LoginContainer()\n\(body)\n".utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            return try await ProcessRunner.run(
                "swiftc", ["-typecheck", "-I", modules, file.path], limit: .seconds(120))
        }
        let registering = try await typecheck("_ = container.register(success:id:)")
        #expect(registering.status == 0, "the client itself must compile: \(registering.stderr)")
        let resolving = try await typecheck("_ = container.successHooks()")
        #expect(resolving.status != 0)
        #expect(resolving.stderr.contains("'successHooks' is inaccessible due to 'internal' protection level"))
    }
}

@Suite struct AccountCardTests {
    struct Sessions: SessionReading {
        let session: LoginSession?
        func storedSession() throws -> LoginSession? { session }
    }

    @Test func signedInAndSignedOut() async throws {
        let signedIn = ComponentHarness(
            AccountComponent(sessions: Sessions(session: LoginSession(userID: "1234", name: "Sara"))))
        await signedIn.load()
        signedIn.expectPhases([.loading, .info])
        #expect(signedIn.card(width: 40).contains("│ Signed in as Sara              #1234 │"))
        let signedOut = ComponentHarness(AccountComponent(sessions: Sessions(session: nil)))
        await signedOut.load()
        #expect(signedOut.card(width: 44).contains("│ Not signed in  order-tracking login 1234 │"))
    }

    /// Sessions that change between loads, as a person signs in and out.
    final class ChangingSessions: SessionReading {
        let session = Locked<LoginSession?>(LoginSession(userID: "1234", name: "Sara"))
        func storedSession() throws -> LoginSession? { session.withLock { $0 } }
    }

    /// Load after load the card says who is signed in now.
    @Test func eachLoadSaysWhoIsSignedInNow() async {
        let sessions = ChangingSessions()
        let harness = ComponentHarness(AccountComponent(sessions: sessions))
        await harness.load()
        #expect(harness.info?.session?.name == "Sara")
        sessions.session.withLock { $0 = nil }
        await harness.reload()
        #expect(harness.info != nil && harness.info?.session == nil, "signed out")
        #expect(harness.card(width: 44).contains("Not signed in"))
        harness.expectPhases([.loading, .info, .loading, .info])
    }
}
