import FixtureBackend
import Foundation

/// Every squad's demo answers (`Modules/<Name>/Fixtures/…`) are laid over the host's tree
/// (`Apps/OrderTracking/Kit/Fixtures/api/…`) by the embedded backend and Scripts/serve-fixtures, which refuse a
/// path two trees give (the card asking it is hidden), and a squad's `_faults.json` or `_timeline.json` (only the
/// host's tree declares them). The embedded backend also refuses a file a squad's tree may not hold
/// (``FixtureClaims``: only answers to the squad's own endpoints and sends, never a screen, a layout or another
/// squad's answer), and squads approve their own folders alone. This finds each in the pull request that adds it,
/// instead of on the screen, with the same rule the backend applies.
enum FixtureLint {
    /// The host's tree: screens, layouts, declared faults and timelines.
    static let hostTree = "Apps/OrderTracking/Kit/Fixtures/api/"

    /// A card's registration or a hook's declaration, as written in a squad's folder:
    /// `ComponentRegistration(module: "Payments", endpoint: "carts/{cart}/price.json", sends: ["carts/{cart}/pay"])`.
    private static let declaration = try! NSRegularExpression(
        pattern: #"\b(?:ComponentRegistration|EndpointDeclaration)\(\s*module:\s*"([^"\\]*)"\s*,\s*endpoint:\s*"#
            + #""([^"\\]*)"(?:\s*,\s*sends:\s*\[([^\]]*)\])?"#)
    private static let literal = try! NSRegularExpression(pattern: #""([^"\\]*)""#)

    /// What each squad claims, read from its own folder's Swift sources: a declaration counts for the squad whose
    /// folder holds it and only when it names that squad (a squad cannot claim for another, nor another for it).
    static func claims(sources: [(path: String, text: String)]) -> FixtureClaims {
        var endpoints: [String: [String]] = [:]
        var sends: [String: [String]] = [:]
        for source in sources {
            let parts = source.path.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count >= 3, parts[0] == "Modules" else { continue }
            let squad = String(parts[1])
            for match in matches(declaration, in: source.text) where match[1] == squad {
                endpoints[squad, default: []].append(match[2])
                sends[squad, default: []] += matches(literal, in: match[3]).map { $0[1] }
            }
        }
        return FixtureClaims(
            endpoints.keys.sorted().map { FixtureClaim(squad: $0, endpoints: endpoints[$0]!, sends: sends[$0] ?? []) })
    }

    /// A finding per path two trees give, in path order, then one per fault or timeline a squad's tree declares,
    /// then one per other file a squad's tree may not hold (`sources`: the Swift files under Modules/, whose
    /// registrations say what each squad claims).
    static func findings(trackedFiles: [String], sources: [(path: String, text: String)]) -> [String] {
        var trees: [String: [String]] = [:]
        var declared: [String] = []
        var unclaimed: [String] = []
        let claims = claims(sources: sources)
        for file in trackedFiles {
            if file.hasPrefix(hostTree) {
                trees[String(file.dropFirst(hostTree.count)), default: []].append(hostTree)
                continue
            }
            let parts = file.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0] == "Modules", parts[2] == "Fixtures" else { continue }
            trees[String(parts[3]), default: []].append("Modules/\(parts[1])/Fixtures/")
            if ["_faults.json", "_timeline.json"].contains(parts[3].split(separator: "/").last ?? "") {
                declared.append(file)
            } else if let why = claims.refusal(of: String(parts[3]), in: String(parts[1])) {
                unclaimed.append(
                    "\(file): squad \(parts[1])'s fixture tree may not hold it: \(why); \(FixtureClaims.rule) "
                        + "(declared by its registrations; screens, layouts, faults and timelines go in \(hostTree)), "
                        + "and the demo backend refuses it")
            }
        }
        let clashes = trees.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { path, givers in
            "\(path): given by \(givers.count) fixture trees (\(givers.joined(separator: ", "))); the demo backend "
                + "refuses it: keep it in the tree of the squad that owns it"
        }
        return clashes
            + declared.sorted().map { file in
                "\(file): faults and timelines are declared in the host's tree (\(hostTree)) only; the demo backend "
                    + "refuses a squad's"
            } + unclaimed.sorted()
    }

    private static func matches(_ expression: NSRegularExpression, in text: String) -> [[String]] {
        expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (0..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }
}
