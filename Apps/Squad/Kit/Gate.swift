import ArgumentParsing
import CodeOwnership

/// The code-owner gate for one pull request: every changed path needs an approval from one of its owners;
/// unowned paths and CODEOWNERS itself need the platform team; the author's own approval never counts.
/// Fails closed: anything it cannot decide is blocked.
public struct Gate: Sendable {
    /// The team that owns whatever nobody else does, and every CODEOWNERS change.
    public static let platform = "@courier/platform"

    /// The verdict for one path.
    public struct Decision: Equatable, Sendable {
        /// The path.
        public let path: String
        /// Who may approve it.
        public let approvers: [String]
        /// Who of them approved, if anyone.
        public let approvedBy: String?
        /// Why the approvers are what they are, when it is not a plain CODEOWNERS match.
        public let note: String?
    }

    /// The gate's answer.
    public struct Result: Equatable, Sendable {
        /// One decision per changed path, in order.
        public let decisions: [Decision]
        /// Warnings: ignored approvals (the author's own, owners CODEOWNERS never names).
        public let warnings: [String]
        /// Whether the pull request may merge.
        public var mayMerge: Bool { decisions.allSatisfy { $0.approvedBy != nil } }
        /// Owner groups still needed, each with the paths waiting on it.
        public var missing: [(approvers: [String], paths: [String])] {
            var groups: [[String]: [String]] = [:]
            var order: [[String]] = []
            for decision in decisions where decision.approvedBy == nil {
                if groups[decision.approvers] == nil { order.append(decision.approvers) }
                groups[decision.approvers, default: []].append(decision.path)
            }
            return order.map { ($0, groups[$0]!) }
        }
    }

    let owners: CodeOwners?
    let codeOwnersPath: String
    let headOwners: CodeOwners?

    /// A gate using the base revision's CODEOWNERS (nil when the base has none: then platform must approve all).
    /// `headOwners`, the pull request's own CODEOWNERS, never decides anything; it only explains a difference.
    public init(owners: CodeOwners?, codeOwnersPath: String = "CODEOWNERS", headOwners: CodeOwners? = nil) {
        self.owners = owners
        self.codeOwnersPath = codeOwnersPath
        self.headOwners = headOwners
    }

    /// Decides `paths` given `approvals`, ignoring approvals by `author`.
    public func evaluate(paths: [String], approvals: [String], author: String?) -> Result {
        var warnings: [String] = []
        let authorHandle = author.map { $0.hasPrefix("@") ? $0 : "@" + $0 }
        var valid: [String] = []
        let known = Set((owners?.rules ?? []).flatMap(\.owners) + [Gate.platform])
        for approval in approvals {
            if approval == authorHandle {
                warnings.append("ignored approval by \(approval): authors cannot approve their own pull request")
            } else if !known.contains(approval) {
                let hint = approval.hasPrefix("@") ? "" : suggestion(for: "@" + approval, among: Array(known))
                warnings.append("ignored approval by \(approval): CODEOWNERS names no such owner" + hint)
            } else {
                valid.append(approval)
            }
        }
        // Deduplicated by bytes: NFC "café" and NFD "cafe\u{301}" are two files to git, each with its owners.
        var seen = Set<[UInt8]>()
        let decisions = paths.filter { seen.insert(PathBytes.key($0)).inserted }.map { path in
            let (approvers, note) = approversFor(path)
            return Decision(
                path: path, approvers: approvers, approvedBy: approvers.first { valid.contains($0) }, note: note)
        }
        return Result(decisions: decisions, warnings: warnings)
    }

    private func approversFor(_ path: String) -> ([String], String?) {
        let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        let odd = segments.contains { $0.isEmpty || $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) }
        if odd || path.unicodeScalars.contains("\u{FFFD}") {
            return ([Gate.platform], "path is not a plain repository path")
        }
        if CodeOwners.searchPaths.contains(where: { PathBytes.same($0, path) }) {
            return ([Gate.platform], "CODEOWNERS changes need the platform team")
        }
        guard let owners else { return ([Gate.platform], "the base revision has no CODEOWNERS") }
        let ownership = owners.ownership(of: path)
        if ownership.owners.isEmpty {
            let why =
                ownership.line.map { "explicitly unowned by CODEOWNERS line \($0)" } ?? "no CODEOWNERS line matches"
            return ([Gate.platform], why)
        }
        if let head = headOwners?.ownership(of: path), !head.owners.isEmpty, head.owners != ownership.owners {
            let line = ownership.line.map { "line \($0)" } ?? "no line"
            return (
                ownership.owners,
                "the base CODEOWNERS (\(line)) gives it to \(ownership.owners.joined(separator: " ")); this pull "
                    + "request's CODEOWNERS names \(head.owners.joined(separator: " ")), which decides from the next pull request"
            )
        }
        return (ownership.owners, nil)
    }
}
