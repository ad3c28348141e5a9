/// Why a login failed; failure hooks receive it, and its name is what the reference run prints.
public enum LoginError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No such user (the account endpoint answered 404).
    case userNotFound
    /// The password does not match.
    case invalidCredentials
    /// The backend could not be asked (transport fault, timeout, 5xx, unreadable answer).
    case backendUnavailable(String)

    /// The case name: "userNotFound", "invalidCredentials", "backendUnavailable".
    public var name: String {
        switch self {
        case .userNotFound: "userNotFound"
        case .invalidCredentials: "invalidCredentials"
        case .backendUnavailable: "backendUnavailable"
        }
    }

    /// What happened and what to try next, for the person at the terminal.
    public var advice: String {
        switch self {
        case .userNotFound: "no such user; check the id (the demo user is 1234)"
        case .invalidCredentials: "wrong password; try again with --password"
        case .backendUnavailable(let why): "the backend could not be asked (\(why)); check --api or try again later"
        }
    }

    /// The name plus detail, for logs.
    public var description: String {
        if case .backendUnavailable(let why) = self { return "\(name) (\(why))" }
        return name
    }
}

/// A signed-in user, as the success hooks see it.
public struct LoginSession: Sendable, Equatable, Codable {
    /// The user's id.
    public let userID: String
    /// The display name from the account.
    public let name: String

    /// Creates a session.
    public init(userID: String, name: String) {
        self.userID = userID
        self.name = name
    }
}

/// Runs after a successful login; Profile, Feed and Storage each provide one.
public protocol PostLoginSuccessPlugin: Sendable {
    /// The line printed when the hook starts, e.g. "Fetching user profile with id 1234...".
    func announcement(for session: LoginSession) -> String
    /// Does the hook's work; returns what it found, one line for the person logging in.
    func didLogIn(_ session: LoginSession) async throws -> String
}

/// Runs after a failed login; Storage provides one to clear what it stored.
public protocol PostLoginFailurePlugin: Sendable {
    /// Reacts to the failure; returns the line to print ("Clear data because of error userNotFound").
    func didFailLogIn(userID: String, error: LoginError) async throws -> String
}

/// Read access to the stored session, so Login's `account` card can show who is signed in without knowing
/// how Storage keeps it (Storage conforms; Login never imports Storage).
public protocol SessionReading: Sendable {
    /// The stored session, or nil when nobody is signed in.
    func storedSession() throws -> LoginSession?
}
