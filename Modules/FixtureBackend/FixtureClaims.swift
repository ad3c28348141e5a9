import Core

/// What one squad's fixture tree (`Modules/<Name>/Fixtures`) may answer: the endpoints its code calls (its cards'
/// registrations, its hooks' declarations) and the sends its cards vouch for (`carts/{cart}/pay`).
public struct FixtureClaim: Sendable, Equatable {
    /// The squad (module) whose tree it is.
    public let squad: String
    /// Endpoint templates, "orders/{order}/payment.json"; one that is not a path ("(stored session)") claims nothing.
    public let endpoints: [String]
    /// Send templates, "carts/{cart}/pay": the squad's tree may hold their answers, `carts/C100/_pay.post.json`.
    public let sends: [String]

    /// A claim of `squad`'s.
    public init(squad: String, endpoints: [String], sends: [String] = []) {
        (self.squad, self.endpoints, self.sends) = (squad, endpoints, sends)
    }
}

/// The rule for every squad's fixture tree, one for `squad lint` and the demo backend alike: a squad's tree holds
/// only answers to its own endpoints (`orders/1234/eta.json` and a timeline's `_eta.3.json`) and to the sends its
/// cards own (`_pay.post.json`). Screens, layouts, faults and timelines are the host's. Squads approve their own
/// folders alone (CODEOWNERS), so without the rule one squad's file could stand in for another squad's endpoint on
/// a subject that lacks it (a rider on order 4040), answer another squad's payment, or add a screen that pays.
public struct FixtureClaims: Sendable, Equatable {
    /// Every squad's claim; a squad without one may hold nothing.
    public let claims: [FixtureClaim]

    /// The rule over `claims`.
    public init(_ claims: [FixtureClaim]) { self.claims = claims }

    /// The claims a host's registry lines make (each card's endpoint and the sends it owns) with the endpoints its
    /// squads call outside any card: one claim per squad, in the squads' order by name.
    public init(registrations: [ComponentRegistration], calling others: [EndpointDeclaration]) {
        var endpoints: [String: [String]] = [:]
        var sends: [String: [String]] = [:]
        for line in registrations {
            endpoints[line.module, default: []].append(line.endpoint)
            sends[line.module, default: []] += line.sends
        }
        for declaration in others { endpoints[declaration.module, default: []].append(declaration.endpoint) }
        self.init(
            endpoints.keys.sorted().map { FixtureClaim(squad: $0, endpoints: endpoints[$0]!, sends: sends[$0] ?? []) })
    }

    /// What the refusals say the rule is, after the reason.
    public static let rule = "a squad's tree holds only answers to its own endpoints and sends"

    /// Why `squad`'s tree may not hold `path` (relative to the tree, "orders/4040/delivery.json"), or nil when it
    /// may: the path answers an endpoint or a send of `squad`'s, and of no other squad's.
    public func refusal(of path: String, in squad: String) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let name = segments.last, segments.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) else {
            return "no endpoint's path is like it"
        }
        let folder = Array(segments.dropLast())
        if name == "_faults.json" || name == "_timeline.json" { return "faults and timelines are the host's" }
        if segments.first == "screens" { return "screens are the host's" }
        if name == "screen.json" { return "layouts (orders/<id>/screen.json) are the host's" }
        let owners: [(squad: String, template: String)]
        let (kind, unowned): (String, String)
        if name.hasPrefix("_"), name.hasSuffix(".post.json"), name.count > "_.post.json".count {
            let sent = (folder + [String(name.dropFirst().dropLast(".post.json".count))]).joined(separator: "/")
            owners = claims.flatMap { claim in
                claim.sends.filter { Self.matches(sent, $0) }.map { (claim.squad, $0) }
            }
            (kind, unowned) = ("it answers the send to \(sent), which is", "it answers the send to \(sent), none of")
        } else {
            owners = claims.flatMap { claim in
                claim.endpoints.filter { Self.answers(segments, $0) }.map { (claim.squad, $0) }
            }
            (kind, unowned) =
                name.hasPrefix("_")
                ? ("it is a timeline's file of", "it is a timeline's file of none of")
                : ("it answers", "it answers none of")
        }
        let others = owners.filter { $0.squad != squad }
        if !owners.isEmpty, others.isEmpty { return nil }
        if let other = others.first { return "\(kind) \(Self.possessive(other.squad)) \(other.template)" }
        let own = claims.filter { $0.squad == squad }.flatMap { $0.endpoints + $0.sends }.filter { $0.contains("/") }
        return own.isEmpty
            ? "\(squad) declares no endpoint or send"
            : "\(unowned) \(Self.possessive(squad)) \(own.joined(separator: ", "))"
    }

    /// Whether the file at `segments` answers `template`: its path, or a timeline's file beside it for a template
    /// ending in a plain name (`_eta.3.json` for `eta.json`, `_details.on_the_way.json` for `details.json`).
    static func answers(_ segments: [String], _ template: String) -> Bool {
        if matches(segments.joined(separator: "/"), template) { return true }
        let parts = template.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let last = parts.last, !last.contains("{"), last.hasSuffix(".json"), let name = segments.last,
            parts.count == segments.count, zip(parts.dropLast(), segments.dropLast()).allSatisfy(segmentMatches)
        else { return false }
        let prefix = "_" + last.dropLast(".json".count) + "."
        let tag = name.hasPrefix(prefix) && name.hasSuffix(".json") ? name.dropFirst(prefix.count).dropLast(5) : ""
        return !tag.isEmpty && tag != "post" && !tag.contains("/")
    }

    /// Whether `path` is `template` filled in: a literal segment as written, a `{name}` (with any text around it,
    /// `{code}.json`) one segment whose filled part is an id (not empty, no leading `_`).
    static func matches(_ path: String, _ template: String) -> Bool {
        let parts = template.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        return parts.count == segments.count && zip(parts, segments).allSatisfy(segmentMatches)
    }

    /// "Promo's", "Payments'".
    static func possessive(_ name: String) -> String { name + (name.hasSuffix("s") ? "'" : "'s") }

    private static func segmentMatches(_ part: String, _ segment: String) -> Bool {
        guard let open = part.firstIndex(of: "{"), let close = part[open...].firstIndex(of: "}") else {
            return part == segment
        }
        let (prefix, suffix) = (part[..<open], part[part.index(after: close)...])
        guard segment.count > prefix.count + suffix.count, segment.hasPrefix(prefix), segment.hasSuffix(suffix) else {
            return false
        }
        let filled = segment.dropFirst(prefix.count).dropLast(suffix.count)
        return !filled.hasPrefix("_") && !filled.hasPrefix(".")
    }
}
