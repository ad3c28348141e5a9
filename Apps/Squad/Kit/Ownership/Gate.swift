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
        /// Who of them approved, if anyone ("paula (for @courier/payments)" from a review, or the owner itself
        /// from `--approved-by`).
        public let approvedBy: String?
        /// Why the approvers are what they are, when it is not a plain CODEOWNERS match.
        public let note: String?
    }

    /// What the gate decides from: owner handles approved by hand, and the pull request's reviews.
    public struct Evidence: Sendable {
        /// `--approved-by` owners (local what-ifs).
        public var approvedOwners: [String] = []
        /// GitHub's reviews, when given.
        public var reviews: [Review] = []
        /// Members of team and email owners, from the base revision.
        public var teams = Teams(members: [:])
        /// The pull request's author, whose reviews and approvals never count.
        public var author: String?
        /// The head commit, and whether approvals of an older commit count for nothing.
        public var headCommit: String?
        /// Branch protection's "dismiss stale pull request approvals".
        public var dismissStale = false

        /// Empty evidence: nothing approved.
        public init() {}
    }

    /// The gate's answer.
    public struct Result: Equatable, Sendable {
        /// One decision per changed path, in order.
        public let decisions: [Decision]
        /// Warnings: ignored owner approvals (the author's own, owners CODEOWNERS never names).
        public let warnings: [String]
        /// Reviewers whose latest decisive review requests changes and who own a changed file, with what they own.
        public let changesRequested: [(login: String, owners: [String])]
        /// Approving reviews that count for nothing, with why.
        public let ignored: [(login: String, reason: String)]
        /// Who can approve for each owner (the people behind a team or email).
        public let people: [String: [String]]
        /// Whether the pull request may merge.
        public var mayMerge: Bool { decisions.allSatisfy { $0.approvedBy != nil } && changesRequested.isEmpty }
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

        /// Equal when they decide the same: the same decisions, warnings, change requests and ignored reviewers.
        public static func == (one: Result, other: Result) -> Bool {
            one.decisions == other.decisions && one.warnings == other.warnings
                && one.changesRequested.map(\.login) == other.changesRequested.map(\.login)
                && one.ignored.map(\.login) == other.ignored.map(\.login)
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

    /// Decides `paths` given `approvals` (owner handles), ignoring approvals by `author`.
    public func evaluate(paths: [String], approvals: [String], author: String?) -> Result {
        var evidence = Evidence()
        evidence.approvedOwners = approvals
        evidence.author = author
        return evaluate(paths: paths, evidence: evidence)
    }

    /// Decides `paths` from `evidence` with GitHub's review semantics: per reviewer the latest approval, change
    /// request or dismissal counts (comments never do), logins compare case-insensitively, the author never
    /// counts, a stale approval counts for nothing under `dismissStale`, and a code owner's change request blocks.
    public func evaluate(paths: [String], evidence: Evidence) -> Result {
        var warnings: [String] = []
        let author = evidence.author.map { ($0.hasPrefix("@") ? String($0.dropFirst()) : $0).lowercased() }
        var valid: [String] = []
        let known = Set((owners?.rules ?? []).flatMap(\.owners) + [Gate.platform])
        for approval in evidence.approvedOwners {
            if let author, approval.lowercased() == "@" + author {
                warnings.append("ignored approval by \(approval): authors cannot approve their own pull request")
            } else if !known.contains(approval) {
                let hint = approval.hasPrefix("@") ? "" : suggestion(for: "@" + approval, among: Array(known))
                warnings.append("ignored approval by \(approval): CODEOWNERS names no such owner" + hint)
            } else {
                valid.append(approval)
            }
        }
        var ignored: [(login: String, reason: String)] = []
        var approving: [String] = []
        var requesting: [String] = []
        for review in Review.latestDecisive(evidence.reviews).values.sorted(by: {
            $0.login.lowercased() < $1.login.lowercased()
        }) {
            if review.login.lowercased() == author {
                if review.state != "DISMISSED" { ignored.append((review.login, "the author")) }
                continue
            }
            switch review.state {
            case "APPROVED":
                if evidence.dismissStale, let head = evidence.headCommit, review.commitID != head {
                    let reviewed = review.commitID.map { String($0.prefix(7)) } ?? "no commit"
                    ignored.append((review.login, "stale: approved \(reviewed), the head is \(head.prefix(7))"))
                } else {
                    approving.append(review.login)
                }
            case "CHANGES_REQUESTED": requesting.append(review.login)
            default: break
            }
        }
        // Deduplicated by bytes: NFC "café" and NFD "cafe\u{301}" are two files to git, each with its owners.
        var seen = Set<[UInt8]>()
        var used = Set<String>()
        func decide(_ path: String, _ approvers: [String], _ note: String?) -> Decision {
            var approvedBy = approvers.first { valid.contains($0) }
            if approvedBy == nil {
                for login in approving {
                    guard let owner = approvers.first(where: { evidence.teams.login(login, satisfies: $0) }) else {
                        continue
                    }
                    approvedBy = "\(login) (for \(owner))"
                    used.insert(login)
                    break
                }
            }
            return Decision(path: path, approvers: approvers, approvedBy: approvedBy, note: note)
        }
        let decisions = paths.filter { seen.insert(PathBytes.key($0)).inserted }.flatMap { path in
            let (approvers, note) = approversFor(path)
            return [decide(path, approvers, note)] + (alsoNeeded(path).map { [decide(path, $0.0, $0.1)] } ?? [])
        }
        for login in approving where !used.contains(login) {
            let ownsSomething = decisions.contains { decision in
                decision.approvers.contains { evidence.teams.login(login, satisfies: $0) }
            }
            if !ownsSomething { ignored.append((login, "not an owner of any changed file")) }
        }
        let allOwners = Array(Set(decisions.flatMap(\.approvers))).sorted()
        let changesRequested = requesting.compactMap { login -> (login: String, owners: [String])? in
            let owned = allOwners.filter { evidence.teams.login(login, satisfies: $0) }
            return owned.isEmpty ? nil : (login, owned)
        }
        let people = Dictionary(uniqueKeysWithValues: allOwners.map { ($0, evidence.teams.people(for: $0)) })
        return Result(
            decisions: decisions, warnings: warnings, changesRequested: changesRequested, ignored: ignored,
            people: people)
    }

    /// A path that is not valid UTF-8 (U+FFFD where its stray bytes were) needs the platform team, and also the
    /// owners of where it sits as CODEOWNERS gives them for the name read that way: a new `secure/\xff.sh` must not
    /// get in on the platform team's approval without `/secure/`'s owners, whom GitHub asks too.
    private func alsoNeeded(_ path: String) -> ([String], String)? {
        guard path.unicodeScalars.contains("\u{FFFD}"), let owners else { return nil }
        let ownership = owners.ownership(of: path)
        guard !ownership.owners.isEmpty, ownership.owners != [Gate.platform] else { return nil }
        let line = ownership.line.map { "CODEOWNERS line \($0)" } ?? "CODEOWNERS"
        return (ownership.owners, "its owners by \(line), the name read with U+FFFD for the bytes that are not UTF-8")
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
