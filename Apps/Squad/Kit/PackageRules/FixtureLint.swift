/// Every squad's demo answers (`Modules/<Name>/Fixtures/…`) are laid over the host's tree
/// (`Apps/OrderTracking/Kit/Fixtures/api/…`) by the embedded backend and Scripts/serve-fixtures, which refuse a
/// path two trees give (the card asking it is hidden). This finds such a path in the pull request that adds it,
/// naming the trees, instead of on the screen.
enum FixtureLint {
    /// The host's tree: screens, layouts, declared faults and timelines.
    static let hostTree = "Apps/OrderTracking/Kit/Fixtures/api/"

    /// A finding per path two trees give, in path order.
    static func findings(trackedFiles: [String]) -> [String] {
        var trees: [String: [String]] = [:]
        for file in trackedFiles {
            if file.hasPrefix(hostTree) {
                trees[String(file.dropFirst(hostTree.count)), default: []].append(hostTree)
                continue
            }
            let parts = file.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0] == "Modules", parts[2] == "Fixtures" else { continue }
            trees[String(parts[3]), default: []].append("Modules/\(parts[1])/Fixtures/")
        }
        return trees.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { path, givers in
            "\(path): given by \(givers.count) fixture trees (\(givers.joined(separator: ", "))); the demo backend "
                + "refuses it: keep it in the tree of the squad that owns it"
        }
    }
}
