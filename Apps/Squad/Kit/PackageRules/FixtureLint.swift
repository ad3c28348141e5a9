/// Every squad's demo answers (`Modules/<Name>/Fixtures/…`) are laid over the host's tree
/// (`Apps/OrderTracking/Kit/Fixtures/api/…`) by the embedded backend and Scripts/serve-fixtures, which refuse a
/// path two trees give (the card asking it is hidden), and a squad's `_faults.json` or `_timeline.json` (only the
/// host's tree declares them). This finds either in the pull request that adds it, instead of on the screen.
enum FixtureLint {
    /// The host's tree: screens, layouts, declared faults and timelines.
    static let hostTree = "Apps/OrderTracking/Kit/Fixtures/api/"

    /// A finding per path two trees give, in path order, then one per fault or timeline a squad's tree declares.
    static func findings(trackedFiles: [String]) -> [String] {
        var trees: [String: [String]] = [:]
        var declared: [String] = []
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
            }
    }
}
