import Login

/// Storage's login hooks: keep the user on success, clear what was kept on failure.
public struct StoragePlugin: PostLoginSuccessPlugin, PostLoginFailurePlugin {
    private let store: UserStore

    /// Hooks backed by `store`.
    public init(store: UserStore) { self.store = store }

    /// Registers both hooks under the id "Storage".
    public static func register(into container: LoginContainer, store: UserStore) throws {
        let plugin = StoragePlugin(store: store)
        try container.register(success: plugin, id: "Storage")
        try container.register(failure: plugin, id: "Storage")
    }

    /// "Storing user with id 1234...".
    public func announcement(for session: LoginSession) -> String { "Storing user with id \(session.userID)..." }

    /// Writes the record atomically.
    public func didLogIn(_ session: LoginSession) async throws -> String {
        "Stored user at \(try store.save(session).path)"
    }

    /// Clears the record: a failed login must not leave a previous user signed in.
    public func didFailLogIn(userID: String, error: LoginError) async throws -> String {
        try store.clear()
        return "Clear data because of error \(error.name)"
    }
}
