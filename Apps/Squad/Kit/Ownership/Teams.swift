import Foundation
import JSON
import SafeText

/// Which people each team and email owner stands for: GitHub's job token cannot read organisation teams, so
/// the repository keeps `.github/teams.json` (`{"@courier/payments": ["paula", "pete"], "dev@example.com":
/// ["dora"]}`), read from the base revision like CODEOWNERS.
public struct Teams: Sendable, Equatable {
    /// Owner (lower-cased) → member logins (lower-cased), in the file's order.
    public let members: [String: [String]]

    /// Where the gate reads it.
    public static let path = ".github/teams.json"

    /// Builds a table directly (tests).
    public init(members: [String: [String]]) {
        self.members = Dictionary(
            members.map { ($0.key.lowercased(), $0.value.map { $0.lowercased() }) }, uniquingKeysWith: { $0 + $1 })
    }

    /// Reads the file's JSON; a wrong shape is an error naming it.
    public static func parse(_ data: Data) throws(ReviewsError) -> Teams {
        let value: JSONValue
        do { value = try JSONValue(parsing: data) } catch { throw ReviewsError("\(error)") }
        guard case .object(let entries) = value else {
            throw ReviewsError("expected an object of owner → [logins], e.g. {\"@org/team\": [\"alice\"]}")
        }
        var members: [String: [String]] = [:]
        for (owner, list) in entries {
            guard case .array(let items) = list else { throw ReviewsError("'\(owner)' must map to an array of logins") }
            var logins: [String] = []
            for item in items {
                guard case .string(let login) = item, !login.isEmpty, !login.hasPrefix("@") else {
                    throw ReviewsError("'\(owner)' lists something that is not a login (plain names, no '@')")
                }
                logins.append(login)
            }
            members[owner] = logins
        }
        return Teams(members: members)
    }

    /// Whether `login` can approve for `owner`: the owner's own login, or a member of the team or email.
    func login(_ login: String, satisfies owner: String) -> Bool {
        let login = login.lowercased()
        let owner = owner.lowercased()
        if owner == "@" + login { return true }
        return members[owner]?.contains(login) ?? false
    }

    /// The people who could approve for `owner`, for the "who to ask" line.
    func people(for owner: String) -> [String] {
        if owner.hasPrefix("@"), !owner.contains("/") { return [String(owner.dropFirst())] }
        return members[owner.lowercased()] ?? []
    }
}
