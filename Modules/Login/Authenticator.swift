import Core
import Foundation

/// Authenticates a user against `users/<id>/account.json`, then resolves and runs the success or failure
/// hooks in registration order, each under its own deadline: one hook that throws or hangs is reported and
/// never stops the others.
public struct Authenticator: Sendable {
    /// What a login run produced.
    public struct Outcome: Sendable, Equatable {
        /// The session, when the login succeeded.
        public let session: LoginSession?
        /// The error, when it failed. Both nil: the run was cancelled (a signal) before the account answered.
        public let error: LoginError?
        /// Hooks that threw or missed their deadline, with why.
        public let hookProblems: [String]
    }

    private let backend: any Backend
    private let container: LoginContainer
    private let clock: any CourierClock
    private let hookDeadline: Duration
    private let say: @Sendable (String) -> Void
    private let note: @Sendable (String) -> Void
    private let warn: @Sendable (String) -> Void

    /// Creates an authenticator. `say` receives the reference lines as they happen ("Logging in...");
    /// `note` what each success hook found (hosts show it on request); `warn` every hook that failed.
    public init(
        backend: any Backend, container: LoginContainer, clock: any CourierClock,
        hookDeadline: Duration = .seconds(5), say: @escaping @Sendable (String) -> Void,
        note: @escaping @Sendable (String) -> Void = { _ in }, warn: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.backend = backend
        self.container = container
        self.clock = clock
        self.hookDeadline = hookDeadline
        self.say = say
        self.note = note
        self.warn = warn
    }

    /// Logs `userID` in (with `password` when the account has one) and runs the hooks. A cancelled task (a
    /// signal) stops it where it is: no hook runs after it, and nothing more is said, since every step left would
    /// fail for the cancellation alone (a failure hook would clear the stored user of a login nobody refused).
    public func logIn(userID: String, password: String?) async -> Outcome {
        say("Logging in...")
        let answer = await authenticate(userID: userID, password: password)
        if Task.isCancelled { return Outcome(session: nil, error: nil, hookProblems: []) }
        switch answer {
        case .success(let session):
            say("Logged in successfully...")
            var findings: [String] = []
            var problems: [String] = []
            for hook in container.successHooks() {
                if Task.isCancelled { return Outcome(session: session, error: nil, hookProblems: problems) }
                say(hook.plugin.announcement(for: session))
                switch await runHook(hook.id, { try await hook.plugin.didLogIn(session) }) {
                case .success(let line): findings.append(line)
                case .failure(let problem): problems.append(problem.message)
                }
            }
            if Task.isCancelled { return Outcome(session: session, error: nil, hookProblems: problems) }
            findings.forEach(note)
            problems.forEach(warn)
            return Outcome(session: session, error: nil, hookProblems: problems)
        case .failure(let error):
            say("Logged in unsuccessfully...")
            var problems: [String] = []
            for hook in container.failureHooks() {
                switch await runHook(hook.id, { try await hook.plugin.didFailLogIn(userID: userID, error: error) }) {
                case .success(let line): say(line)
                case .failure(let problem): problems.append(problem.message)
                }
            }
            problems.forEach(warn)
            return Outcome(session: nil, error: error, hookProblems: problems)
        }
    }

    private func authenticate(userID: String, password: String?) async -> Result<LoginSession, LoginError> {
        struct Account: Decodable {
            let name: String
            let password: String?
        }
        do {
            let endpoint = try Endpoint("users", userID, "account.json")
            let backend = backend
            let data = try await withDeadline(hookDeadline, on: clock) { try await backend.fetch(endpoint) }
            let account = try JSONDecoder().decode(Account.self, from: data)
            if let expected = account.password, expected != password { return .failure(.invalidCredentials) }
            return .success(LoginSession(userID: userID, name: account.name))
        } catch BackendError.notFound {
            return .failure(.userNotFound)
        } catch {
            return .failure(.backendUnavailable(Failure(describing: error).reason))
        }
    }

    private func runHook(_ id: String, _ body: @escaping @Sendable () async throws -> String) async -> Result<
        String, HookProblem
    > {
        do {
            return .success(try await withDeadline(hookDeadline, on: clock, body))
        } catch is DeadlineExceeded {
            return .failure(
                HookProblem(
                    message: "Hook '\(id)' did not finish within \(String(format: "%g", hookDeadline.seconds))s"))
        } catch {
            return .failure(HookProblem(message: "Hook '\(id)' failed: \(Failure(describing: error).reason)"))
        }
    }
}

private struct HookProblem: Error {
    let message: String
}
