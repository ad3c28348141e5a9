import CodeOwnership
import Foundation

/// `squad affected`: which test targets a change needs run, why, and the command that runs them.
public struct Affected: Sendable {
    /// Files under these prefixes change everything (the manifest is compared instead: ``manifest``).
    public static let everything = [".ci/", "Scripts/", ".swift-format"]
    /// The manifest, whose change affects the targets whose declarations changed.
    public static let manifest = "Package.swift"

    /// What a change affects.
    public struct Analysis: Sendable, Equatable {
        /// Targets whose own files changed.
        public let changed: [String]
        /// Those and every target depending on them, directly or not.
        public let affected: [String]
        /// The test targets among them.
        public let tests: [String]
        /// Suites to run alone, `OrderTrackingTests.ScreenCompositionTests`: `.ci/readers` names them as the only
        /// readers of a changed file in a test target that is not otherwise affected.
        public var suites: [String] = []
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
        public var command: String { filter.isEmpty ? "" : "swift test --filter '\(filter)'" }

        /// The `--filter` pattern for the affected test targets and suites (empty: nothing to run): a target's
        /// tests are `Target.Suite/test()`, so `^(A|B)\.` runs targets and `^(A\.S)/` suites.
        public var filter: String {
            let targets = tests.isEmpty ? [] : ["^(\(tests.joined(separator: "|")))\\."]
            let named = suites.map { $0.replacingOccurrences(of: ".", with: "\\.") }
            return (targets + (named.isEmpty ? [] : ["^(\(named.joined(separator: "|")))/"])).joined(separator: "|")
        }
    }

    let graph: PackageGraph
    let base: PackageGraph?
    let readers: Readers

    /// Creates the analysis for a package (`graph`, the revision compared), the package at the base (to compare
    /// manifests; nil: a manifest change affects everything) and the table of tests reading untargeted files.
    public init(graph: PackageGraph, base: PackageGraph? = nil, readers: Readers = Readers()) {
        (self.graph, self.base, self.readers) = (graph, base, readers)
    }

    /// The changed targets, every target depending on them, the test targets to run, and why.
    public func analyse(_ paths: [String]) -> (changed: [String], affected: [String], tests: [String]) {
        let analysis = explain(paths)
        return (analysis.changed, analysis.affected, analysis.tests)
    }

    /// ``analyse(_:)`` with the reason for every affected target.
    public func explain(_ paths: [String]) -> Analysis {
        var why: [String: String] = [:]
        var readBy: [String: String] = [:]
        var suites: [String: String] = [:]
        for path in paths {
            let reason: String?
            if Affected.everything.contains(where: { Affected.path(path, isOrIsBelow: $0) }) {
                reason = "\(PathBytes.quoted(path)) changed, which affects every target"
            } else if PathBytes.same(path, Affected.manifest) {
                reason = manifestChange(into: &why)
                // The manifest is also read as text (squad new edits it): its readers run too.
                if let line = readers.line(for: path) { read(path, line: line, into: &readBy, suites: &suites) }
            } else if let line = readers.line(for: path) {
                read(path, line: line, into: &readBy, suites: &suites)
                reason = nil
            } else if let target = graph.owningTarget(of: path) {
                if why[target] == nil { why[target] = "\(PathBytes.quoted(path)) changed" }
                reason = nil
            } else {
                reason = everything(path)
            }
            if let reason { return all(reason) }
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
        why.merge(readBy) { compiled, _ in compiled }
        let affected = Set(why.keys)
        let tests = graph.targets.filter { $0.kind == "test" && affected.contains($0.name) }.map(\.name)
        // A suite runs alone only when its whole target does not run anyway.
        let alone = suites.filter { suite, _ in !affected.contains(String(suite.prefix { $0 != "." })) }
        var analysis = Analysis(
            changed: changed.sorted(), affected: (affected.union(alone.keys)).sorted(), tests: tests.sorted(),
            why: why.merging(alone) { target, _ in target })
        analysis.suites = alone.keys.sorted()
        return analysis
    }

    /// Whether `path` is `entry` or, for an entry ending in "/", below it.
    private static func path(_ path: String, isOrIsBelow entry: String) -> Bool {
        entry.hasSuffix("/") ? PathBytes.hasPrefix(path, entry) : PathBytes.same(path, entry)
    }

    /// Why a file no target holds and the readers table does not name reaches every target (fail closed: any
    /// test may read it).
    private func everything(_ path: String) -> String {
        return "\(PathBytes.quoted(path)) changed, which no target holds and \(Readers.path) does not list, so "
            + "every target is affected (fail closed); name the tests that read it in \(Readers.path)"
    }

    /// The test targets a line of the readers table names for `path` (the holding target's own tests for
    /// ``Readers/own``), and the suites it names (`Target.Suite`): the file is read at run time, not compiled, so
    /// nothing depending on its target is.
    private func read(
        _ path: String, line: Readers.Line, into readBy: inout [String: String], suites: inout [String: String]
    ) {
        let holder = graph.owningTarget(of: path)
        for name in line.tests {
            if name.contains(".") {
                if suites[name] == nil,
                    graph.targets.contains(where: { $0.kind == "test" && name.hasPrefix($0.name + ".") })
                {
                    suites[name] = "reads \(PathBytes.quoted(path)) (\(Readers.path): \(line.pattern))"
                }
                continue
            }
            let tests =
                name == Readers.own
                ? graph.targets.filter { $0.kind == "test" && holder.map($0.dependencies.contains) == true }
                : graph.targets.filter { $0.kind == "test" && $0.name == name }
            for test in tests where readBy[test.name] == nil {
                readBy[test.name] = "reads \(PathBytes.quoted(path)) (\(Readers.path): \(line.pattern))"
            }
        }
    }

    /// The targets a manifest change touches: those new at the head or declared differently from the base;
    /// every target when the package-wide settings changed or there is no base manifest to compare with.
    private func manifestChange(into why: inout [String: String]) -> String? {
        guard let base else {
            return "\(Affected.manifest) changed and there are not two manifests to compare, which affects every target"
        }
        guard base.settings == graph.settings else {
            return "\(Affected.manifest)'s package-wide settings changed, which affects every target"
        }
        let before = Dictionary(base.targets.map { ($0.name, $0.declaration) }) { first, _ in first }
        for target in graph.targets where why[target.name] == nil && before[target.name] != target.declaration {
            why[target.name] =
                before[target.name] == nil
                ? "new in \(Affected.manifest)" : "its declaration in \(Affected.manifest) changed"
        }
        return nil
    }

    /// Every target, for one reason said once.
    private func all(_ reason: String) -> Analysis {
        let names = graph.targets.map(\.name)
        return Analysis(
            changed: names, affected: names, tests: graph.targets.filter { $0.kind == "test" }.map(\.name).sorted(),
            why: [:], everything: reason)
    }
}
