import Core
import Foundation
import Tabs

/// A tab that does something instead of showing a screen: selecting it signs the user out (clears the stored
/// record), as `order-tracking logout` does. Storage owns it because Storage owns the record.
public struct SignOutTab: TabPlugin {
    private let store: UserStore

    /// A tab clearing `store`.
    public init(store: UserStore) { self.store = store }

    /// "signout".
    public var id: String { "signout" }
    /// "Sign out".
    public var title: String { "Sign out" }
    /// Last on the bar.
    public var order: Int { 90 }
    /// It acts when opened: a live screen asks first.
    public var confirmation: String? { "Sign out?" }

    /// Only when someone is signed in.
    public func isApplicable(_ session: TabSession) -> Bool { session.userID != nil }

    /// Clears the record and says so; a record that cannot be removed says why and what to do.
    public func open(_ session: TabSession) async -> TabOpening {
        do {
            try store.clear()
            return .performed("Signed out user \(session.userID ?? "?") (removed \(store.file.path)).")
        } catch { return .failed("could not sign out: \(error)") }
    }
}
