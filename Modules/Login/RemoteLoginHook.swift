import Core
import Foundation

/// A success hook whose work runs where the host chooses (its squad's worker process), so a crash or hang in it is
/// that hook's failure: the others still run and the result is said. The host keeps the squad's announcement, and
/// what the hook published where it ran (a tab's badge) comes back with its line, since that process's values are
/// not the host's.
public struct RemoteLoginHook: PostLoginSuccessPlugin {
    private let plugin: any PostLoginSuccessPlugin
    private let published: @Sendable ([String: String]) -> Void
    private let elsewhere: @Sendable (Data) async throws -> String

    /// `plugin`'s announcement, with its work done by `elsewhere` (handed the session as JSON, answering what
    /// ``work(_:)`` made of it); the values it published there are handed to `published`.
    public init(
        _ plugin: any PostLoginSuccessPlugin, published: @escaping @Sendable ([String: String]) -> Void = { _ in },
        running elsewhere: @escaping @Sendable (Data) async throws -> String
    ) {
        (self.plugin, self.published, self.elsewhere) = (plugin, published, elsewhere)
    }

    /// The squad's own line ("Fetching user profile with id 1234...").
    public func announcement(for session: LoginSession) -> String { plugin.announcement(for: session) }

    /// The work, done elsewhere: its line, and what it published handed on.
    public func didLogIn(_ session: LoginSession) async throws -> String {
        let reply = try JSONDecoder().decode(
            Reply.self, from: Data(try await elsewhere(JSONEncoder().encode(session)).utf8))
        published(reply.published)
        return reply.said
    }

    /// What the other side answers: the hook's line and the values it published.
    struct Reply: Codable {
        let said: String
        let published: [String: String]
    }

    /// The other side: the hook `make` builds over the backend it is handed, with a way to read what it published
    /// (a fresh set of its tab's params), run on a session given as JSON.
    public static func work(
        _ make:
            @escaping @Sendable (any Backend) -> (
                any PostLoginSuccessPlugin, published: @Sendable () -> [String: String]
            )
    ) -> @Sendable (any Backend, Data) async throws -> String {
        { backend, session in
            let (plugin, published) = make(backend)
            let said = try await plugin.didLogIn(try JSONDecoder().decode(LoginSession.self, from: session))
            return String(decoding: try JSONEncoder().encode(Reply(said: said, published: published())), as: UTF8.self)
        }
    }
}
