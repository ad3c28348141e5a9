import Foundation

extension Affected {
    /// The analysis as a repository holds it: the package and `.ci/readers` at `head` (nil: the working tree),
    /// and, when the manifest changed, the package at `base` to compare it with. A head without a readable
    /// manifest is answered from the base's graph, with every target affected (there is nothing to compare).
    static func reading(
        _ shell: Shell, root: URL, base: String?, head: String?, manifestChanged: Bool
    ) throws -> Affected {
        let git = Git(shell: shell)
        guard let head else {
            let graph = try PackageGraph.dump(shell)
            let readers = try? String(contentsOf: root.appendingPathComponent(Readers.path), encoding: .utf8)
            return Affected(
                graph: graph, base: manifestChanged ? base.flatMap { PackageGraph.dump(shell, revision: $0) } : nil,
                readers: readers.map(Readers.init(text:)) ?? Readers())
        }
        let graph = PackageGraph.dump(shell, revision: head)
        let baseGraph = manifestChanged || graph == nil ? base.flatMap { PackageGraph.dump(shell, revision: $0) } : nil
        guard let answering = graph ?? baseGraph else {
            throw PackageGraph.unreadable([head] + (base.map { [$0] } ?? []))
        }
        let readers = git.show(Readers.path, at: head) ?? base.flatMap { git.show(Readers.path, at: $0) }
        return Affected(
            graph: answering, base: graph == nil ? nil : baseGraph,
            readers: readers.map(Readers.init(text:)) ?? Readers())
    }
}
