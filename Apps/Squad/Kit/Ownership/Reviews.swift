import Foundation
import JSON
import SafeText

/// One pull-request review as GitHub's REST API lists it ("list reviews for a pull request").
public struct Review: Sendable, Equatable {
    /// The reviewer's login as GitHub spells it.
    public let login: String
    /// `APPROVED`, `CHANGES_REQUESTED`, `COMMENTED`, `DISMISSED` or `PENDING`.
    public let state: String
    /// The commit the review was made on.
    public let commitID: String?
    /// When it was submitted (ISO 8601); nil for a pending review.
    public let submittedAt: String?

    /// Describes a review.
    public init(login: String, state: String, commitID: String? = nil, submittedAt: String? = nil) {
        self.login = login
        self.state = state
        self.commitID = commitID
        self.submittedAt = submittedAt
    }

    /// The states that change a reviewer's standing; comments and pending reviews never do.
    static let decisive: Set<String> = ["APPROVED", "CHANGES_REQUESTED", "DISMISSED"]
    static let known: Set<String> = decisive.union(["COMMENTED", "PENDING"])

    /// Reads the API's JSON: one array, or several pages concatenated (`gh api --paginate`). Anything else is
    /// an error naming the problem, so the gate fails closed instead of deciding on part of the evidence.
    public static func parse(_ data: Data) throws(ReviewsError) -> [Review] {
        let pages: [JSONValue]
        do { pages = try JSONValue.sequence(parsing: data) } catch { throw ReviewsError("\(error)") }
        var reviews: [Review] = []
        for page in pages {
            guard case .array(let items) = page else { throw ReviewsError("expected an array of reviews") }
            for (index, item) in items.enumerated() {
                guard case .object(let fields) = item, case .object(let user)? = fields["user"],
                    case .string(let login)? = user["login"], !login.isEmpty,
                    case .string(let state)? = fields["state"], known.contains(state)
                else {
                    throw ReviewsError(
                        "review \(reviews.count + 1) (page item \(index + 1)) needs user.login and a state of "
                            + known.sorted().joined(separator: ", "))
                }
                let text = { (key: String) -> String? in
                    if case .string(let value)? = fields[key] { return value }
                    return nil
                }
                // Standing is decided by time, so a review that counts must say when it was made.
                let submitted = text("submitted_at")
                if state != "PENDING", submitted.flatMap(ReviewTime.init) == nil {
                    let shown = submitted.map { "'\(SafeText.visible(String($0.prefix(40))))'" } ?? "none"
                    throw ReviewsError(
                        "review \(reviews.count + 1) (\(SafeText.visible(String(login.prefix(40)))), \(state)) has no "
                            + "ISO 8601 submitted_at (found \(shown)), e.g. 2026-11-20T10:05:00Z")
                }
                reviews.append(
                    Review(login: login, state: state, commitID: text("commit_id"), submittedAt: text("submitted_at")))
            }
        }
        return reviews
    }

    /// Each reviewer's standing: their latest decisive review (by the instant `submitted_at` names, then by order
    /// in the list), keyed by lower-cased login, as GitHub compares logins case-insensitively. A decisive review
    /// without a time sorts first (``parse(_:)`` refuses such a review; this is for reviews built in code).
    static func latestDecisive(_ reviews: [Review]) -> [String: Review] {
        let earliest = ReviewTime(seconds: .min, nanoseconds: 0)
        let ordered = reviews.enumerated().filter { decisive.contains($0.element.state) }
            .map { ($0.offset, $0.element, $0.element.submittedAt.flatMap(ReviewTime.init) ?? earliest) }
            .sorted { ($0.2, $0.0) < ($1.2, $1.0) }
        var latest: [String: Review] = [:]
        for (_, review, _) in ordered { latest[review.login.lowercased()] = review }
        return latest
    }
}

/// A reviews or teams file that cannot be used: the gate refuses to decide (exit 2).
public struct ReviewsError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with it.
    public let message: String
    /// Creates the error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
