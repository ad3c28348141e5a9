import CodeOwnership
import Foundation

/// `squad affected`: which test targets a change needs run, why, and the command that runs them.
public struct Affected: Sendable {
    /// Files under these prefixes change everything.
    public static let everything = ["Package.swift", ".ci/", "Scripts/", ".swift-format"]

    /// What a change affects.
    public struct Analysis: Sendable, Equatable {
        /// Targets whose own files changed.
        public let changed: [String]
        /// Those and every target depending on them, directly or not.
        public let affected: [String]
        /// The test targets among them.
        public let tests: [String]
        /// Why each affected target is affected: the changed file, or the dependency it reaches it through.
        public let why: [String: String]
        /// Why every target is affected, when one change reaches them all (said once, not once per target).
        public var everything: String?

        /// An analysis (tests build them directly).
        public init(
            changed: [String], affected: [String], tests: [String], why: [String: String], everything: String? = nil
        ) {
            (self.changed, self.affected, self.tests, self.why, self.everything) = (
                changed, affected, tests, why, everything
            )
        }

        /// The command that runs exactly the affected tests (nothing to run: an empty string).
        public var command: String {
            tests.isEmpty ? "" : "swift test --filter '^(\(tests.joined(separator: "|")))\\.'"
        }
    }

    let graph: PackageGraph

    /// Creates the analysis for a package.
    public init(graph: PackageGraph) { self.graph = graph }

    /// The changed targets, every target depending on them, the test targets to run, and why.
    public func analyse(_ paths: [String]) -> (changed: [String], affected: [String], tests: [String]) {
        let analysis = explain(paths)
        return (analysis.changed, analysis.affected, analysis.tests)
    }

    /// ``analyse(_:)`` with the reason for every affected target.
    public func explain(_ paths: [String]) -> Analysis {
        if let global = paths.first(where: { path in
            Affected.everything.contains {
                PathBytes.same(path, $0) || ($0.hasSuffix("/") && PathBytes.hasPrefix(path, $0))
            }
        }) {
            let all = graph.targets.map(\.name)
            return Analysis(
                changed: all, affected: all, tests: graph.targets.filter { $0.kind == "test" }.map(\.name).sorted(),
                why: [:], everything: "\(PathBytes.quoted(global)) changed, which affects every target")
        }
        var why: [String: String] = [:]
        for path in paths {
            guard let target = graph.owningTarget(of: path), why[target] == nil else { continue }
            why[target] = "\(PathBytes.quoted(path)) changed"
        }
        let changed = Set(why.keys)
        // Breadth first from the changed targets, so each dependent names the nearest way it is reached.
        var frontier = changed.sorted()
        while !frontier.isEmpty {
            var next: [String] = []
            for target in graph.targets where why[target.name] == nil {
                guard let through = target.dependencies.first(where: { frontier.contains($0) }) else { continue }
                why[target.name] = "depends on \(through)" + (changed.contains(through) ? "" : ", which is affected")
                next.append(target.name)
            }
            frontier = next
        }
        let affected = Set(why.keys)
        let tests = graph.targets.filter { $0.kind == "test" && affected.contains($0.name) }.map(\.name)
        return Analysis(changed: changed.sorted(), affected: affected.sorted(), tests: tests.sorted(), why: why)
    }
}
