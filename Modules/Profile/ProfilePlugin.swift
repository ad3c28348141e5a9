import Core
import Foundation
import Login
import Tabs

/// Profile's login hook: fetches `users/<id>/profile.json` once the user is in.
public struct ProfilePlugin: PostLoginSuccessPlugin {
    private let backend: any Backend

    /// A hook fetching from `backend`.
    public init(backend: any Backend) { self.backend = backend }

    /// What the hook and the tab fetch: Profile's demo data answers it.
    public static let endpoint = EndpointDeclaration(module: "Profile", endpoint: "users/{user}/profile.json")

    /// "Fetching user profile with id 1234...".
    public func announcement(for session: LoginSession) -> String {
        "Fetching user profile with id \(session.userID)..."
    }

    /// Fetches and summarises the profile.
    public func didLogIn(_ session: LoginSession) async throws -> String {
        let profile = try await ProfilePlugin.fetch(session.userID, backend: backend)
        return "Profile: \(profile.name), \(profile.city)"
    }

    struct Profile: Decodable {
        let name: String
        let city: String
        let member_since: String
    }

    static func fetch(_ userID: String, backend: any Backend) async throws -> Profile {
        let data = try await backend.fetch(try Endpoint("users", userID, "profile.json"))
        return try JSONDecoder().decode(Profile.self, from: data)
    }
}

/// Profile's tab: shown only when a user is stored.
public struct ProfileTab: TabPlugin {
    private let backend: any Backend

    /// A tab fetching from `backend`.
    public init(backend: any Backend) { self.backend = backend }

    /// "profile".
    public var id: String { "profile" }
    /// "Profile".
    public var title: String { "Profile" }
    /// After Tracking.
    public var order: Int { 20 }
    /// Only for a signed-in user.
    public func isApplicable(_ session: TabSession) -> Bool { session.userID != nil }

    /// The profile's lines.
    public func open(_ session: TabSession) async -> TabOpening {
        guard let userID = session.userID else {
            return .screen(["Sign in to see your profile: order-tracking login 1234"])
        }
        do {
            let profile = try await ProfilePlugin.fetch(userID, backend: backend)
            return .screen(["\(profile.name)", "City: \(profile.city)", "Member since \(profile.member_since)"])
        } catch { return .screen(["Profile unavailable: \(Failure(describing: error).reason)"]) }
    }
}
