import Core
import Foundation

/// A success hook whose work runs where the host chooses (its squad's worker process), so a crash or hang in it is
/// that hook's failure: the others still run and the result is said. The host keeps the squad's announcement.
public struct RemoteLoginHook: PostLoginSuccessPlugin {
    private let plugin: any PostLoginSuccessPlugin
    private let elsewhere: @Sendable (Data) async throws -> String

    /// `plugin`'s announcement, with its work done by `elsewhere`, handed the session as JSON.
    public init(
        _ plugin: any PostLoginSuccessPlugin, running elsewhere: @escaping @Sendable (Data) async throws -> String
    ) {
        (self.plugin, self.elsewhere) = (plugin, elsewhere)
    }

    /// The squad's own line ("Fetching user profile with id 1234...").
    public func announcement(for session: LoginSession) -> String { plugin.announcement(for: session) }

    /// The work, done elsewhere.
    public func didLogIn(_ session: LoginSession) async throws -> String {
        try await elsewhere(try JSONEncoder().encode(session))
    }

    /// The other side: the hook `make` builds over the worker's backend, run on a session given as JSON.
    public static func work(_ make: @escaping @Sendable (any Backend) -> any PostLoginSuccessPlugin)
        -> @Sendable (any Backend, Data) async throws -> String
    {
        { backend, session in
            try await make(backend).didLogIn(try JSONDecoder().decode(LoginSession.self, from: session))
        }
    }
}
