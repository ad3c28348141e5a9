import Core
import Foundation
import Login
import Tabs

/// Feed's login hook: fetches `users/<id>/feed.json` once the user is in, and updates the tab's badge.
public struct FeedPlugin: PostLoginSuccessPlugin {
    private let backend: any Backend
    private let params: TabParams?

    /// A hook fetching from `backend`; `params` (the Feed tab's) get the item count as the badge.
    public init(backend: any Backend, params: TabParams? = nil) {
        self.backend = backend
        self.params = params
    }

    /// What the hook and the tab fetch: Feed's demo data answers it.
    public static let endpoint = EndpointDeclaration(module: "Feed", endpoint: "users/{user}/feed.json")

    /// "Fetching user feed with id 1234...".
    public func announcement(for session: LoginSession) -> String { "Fetching user feed with id \(session.userID)..." }

    /// Fetches the feed and reports how many items it has.
    public func didLogIn(_ session: LoginSession) async throws -> String {
        let items = try await FeedPlugin.fetch(session.userID, backend: backend)
        params?.set(TabParams.badge, items.isEmpty ? nil : "\(items.count)")
        return "Feed: \(items.count) item\(items.count == 1 ? "" : "s")"
    }

    struct Item: Decodable {
        let title: String
    }

    static func fetch(_ userID: String, backend: any Backend) async throws -> [Item] {
        struct Feed: Decodable { let items: [Item] }
        let data = try await backend.fetch(try Endpoint("users", userID, "feed.json"))
        return try JSONDecoder().decode(Feed.self, from: data).items
    }
}

/// Feed's tab: shown for a signed-in user, with the number of items as its badge once its content has loaded.
public struct FeedTab: TabPlugin {
    private let backend: any Backend
    /// The badge lives here; the login hook and the tab's own load update it.
    public let params: TabParams

    /// A tab fetching from `backend`.
    public init(backend: any Backend, params: TabParams = TabParams()) {
        self.backend = backend
        self.params = params
    }

    /// "feed".
    public var id: String { "feed" }
    /// "Feed".
    public var title: String { "Feed" }
    /// After Profile.
    public var order: Int { 30 }

    /// Only for a signed-in user.
    public func isApplicable(_ session: TabSession) -> Bool { session.userID != nil }

    /// Fetches the items and publishes their count as the badge (none when signed out or on failure).
    public func load(_ session: TabSession) async {
        guard let userID = session.userID, let items = try? await FeedPlugin.fetch(userID, backend: backend) else {
            params.set(TabParams.badge, nil)
            return
        }
        params.set(TabParams.badge, items.isEmpty ? nil : "\(items.count)")
    }

    /// The feed's items.
    public func open(_ session: TabSession) async -> TabOpening {
        guard let userID = session.userID else {
            return .screen(["Sign in to see your feed: order-tracking login 1234"])
        }
        do { return .screen(try await FeedPlugin.fetch(userID, backend: backend).map { "• \($0.title)" }) } catch {
            return .screen(["Feed unavailable: \(Failure(describing: error).reason)"])
        }
    }
}
