import Core
import Foundation
import Login
import Tabs

/// Feed's login hook: fetches `users/<id>/feed.json` once the user is in, and updates the tab's badge.
public struct FeedPlugin: PostLoginSuccessPlugin {
    private let backend: any Backend
    private let badge: TabBadge?

    /// A hook fetching from `backend`; `badge` (the Feed tab's) gets the item count.
    public init(backend: any Backend, badge: TabBadge? = nil) {
        self.backend = backend
        self.badge = badge
    }

    /// "Fetching user feed with id 1234...".
    public func announcement(for session: LoginSession) -> String { "Fetching user feed with id \(session.userID)..." }

    /// Fetches the feed and reports how many items it has.
    public func didLogIn(_ session: LoginSession) async throws -> String {
        let items = try await FeedPlugin.fetch(session.userID, backend: backend)
        badge?.set(items.isEmpty ? nil : "\(items.count)")
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

/// Feed's tab: shown for a signed-in user, with the number of items as its badge.
public struct FeedTab: TabPlugin {
    private let backend: any Backend
    /// The badge; the login hook and the tab itself update it.
    public let badge: TabBadge?

    /// A tab fetching from `backend`.
    public init(backend: any Backend, badge: TabBadge = TabBadge()) {
        self.backend = backend
        self.badge = badge
    }

    /// "feed".
    public var id: String { "feed" }
    /// "Feed".
    public var title: String { "Feed" }
    /// After Profile.
    public var order: Int { 30 }

    /// Only for a signed-in user; refreshes the badge while deciding.
    public func isApplicable(_ session: TabSession) async -> Bool {
        guard let userID = session.userID else { return false }
        if let items = try? await FeedPlugin.fetch(userID, backend: backend) {
            badge?.set(items.isEmpty ? nil : "\(items.count)")
        }
        return true
    }

    /// The feed's items.
    public func screen(_ session: TabSession) async -> [String] {
        guard let userID = session.userID else { return ["Sign in to see your feed: order-tracking login 1234"] }
        do { return try await FeedPlugin.fetch(userID, backend: backend).map { "• \($0.title)" } } catch {
            return ["Feed unavailable: \(Failure(describing: error).reason)"]
        }
    }
}
