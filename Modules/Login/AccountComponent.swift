import Core

/// Who is signed in, as the `account` card shows it.
public struct AccountInfo: Sendable, Equatable, Encodable {
    /// The stored session, nil when nobody is signed in.
    public let session: LoginSession?
}

/// Login's own card: a skeleton while the stored session is checked, then "Signed in as …" or a sign-in hint.
public struct AccountComponent: Component {
    /// The id layouts use.
    public static let id: ComponentID = "account"
    private let sessions: any SessionReading

    /// Reads the session from `sessions` (the host passes Storage's store).
    public init(sessions: any SessionReading) { self.sessions = sessions }

    /// Checks the stored session.
    public func load(_ context: ComponentContext) async throws -> AccountInfo {
        AccountInfo(session: try sessions.storedSession())
    }

    /// Skeleton, who is signed in (or how to sign in), or nothing.
    public func card(for state: ComponentState<AccountInfo>, context: ComponentContext) -> Block? {
        switch state {
        case .loading: return .skeleton(title: "Account", lines: 1)
        case .failed: return nil
        case .info(let info):
            guard let session = info.session else {
                return Block(
                    title: "Account", rows: [Row("Not signed in", value: "order-tracking login 1234", style: .dim)])
            }
            return Block(title: "Account", rows: [Row("Signed in as \(session.name)", value: "#\(session.userID)")])
        }
    }
}

/// Login's face to hosts.
public enum LoginModule {
    /// The `account` card's registry line; `sessions` says where the signed-in user is kept.
    public static func registration(sessions: any SessionReading) -> ComponentRegistration {
        ComponentRegistration(module: "Login", endpoint: "(stored session)") { AccountComponent(sessions: sessions) }
    }

    /// What logging in fetches (``Authenticator``): Login's demo data answers it.
    public static let account = EndpointDeclaration(module: "Login", endpoint: "users/{user}/account.json")
}
