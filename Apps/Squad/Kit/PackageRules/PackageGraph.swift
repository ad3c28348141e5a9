import CodeOwnership
import Foundation

/// The package's targets as SwiftPM reports them (`swift package dump-package`): names, kinds, folders, edges.
public struct PackageGraph: Sendable, Equatable {
    /// One target.
    public struct Target: Sendable, Equatable {
        /// The target's name.
        public let name: String
        /// "regular", "executable" or "test".
        public let kind: String
        /// Its folder, relative to the package root.
        public let path: String
        /// Names of the targets it depends on.
        public let dependencies: [String]
        /// Everything the manifest declares about it (settings, resources, excludes, the products that list it),
        /// as canonical JSON: `squad affected` compares two revisions' declarations to find the targets a
        /// manifest change touches, instead of running every test.
        public let declaration: String

        /// Describes a target.
        public init(name: String, kind: String, path: String, dependencies: [String], declaration: String = "") {
            self.name = name
            self.kind = kind
            self.path = path
            self.dependencies = dependencies
            self.declaration = declaration
        }
    }

    /// Every target, in manifest order.
    public let targets: [Target]
    /// The manifest's package-wide declarations (tools version, platforms, language modes, …) as canonical JSON:
    /// when they change, every target is affected.
    public let settings: String

    /// Reads the JSON printed by `swift package dump-package`.
    public init(dumpPackageJSON data: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let targets = root["targets"] as? [[String: Any]]
        else { throw ShellError(message: "dump-package output has no 'targets'") }
        let products = root["products"] as? [[String: Any]] ?? []
        self.targets = targets.map { target in
            let name = target["name"] as? String ?? ""
            let kind = target["type"] as? String ?? "regular"
            let path = target["path"] as? String ?? (kind == "test" ? "Tests/\(name)" : "Sources/\(name)")
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                dependency.values.compactMap { ($0 as? [Any])?.first as? String }.first
            }
            let listing = products.filter { ($0["targets"] as? [String] ?? []).contains(name) }
            let declaration = PackageGraph.canonical(["target": target, "products": listing])
            return Target(name: name, kind: kind, path: path, dependencies: dependencies, declaration: declaration)
        }
        // packageKind holds the folder the manifest was read in, which differs between two reads of one revision.
        settings = PackageGraph.canonical(root.filter { !["targets", "products", "packageKind"].contains($0.key) })
    }

    /// JSON with sorted keys, so two reads of one declaration are equal text.
    private static func canonical(_ value: Any) -> String {
        (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]))
            .map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Asks SwiftPM for the manifest of the package at the shell's directory. A scratch path of its own (under
    /// .build) keeps it from waiting on the lock of a build already running there (as when `swift test` runs
    /// the linter), and a private TMPDIR, removed afterwards, keeps SwiftPM's temporary folders from piling up.
    static func dump(_ shell: Shell) throws -> PackageGraph {
        let scratch = shell.directory.appendingPathComponent(".build/squad-dump-package")
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("squad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let json = try shell.run(
            "swift", ["package", "--scratch-path", scratch.path, "dump-package"],
            environment: ["TMPDIR": temporary.path])
        return try PackageGraph(dumpPackageJSON: Data(json.utf8))
    }

    /// The package as the manifest at `revision` declares it, or nil when it has no `Package.swift` SwiftPM can
    /// read, so `squad affected` answers from the revisions it compares, never from a working tree whose manifest
    /// may be renamed or half-edited. SwiftPM's own error never reaches the person.
    static func dump(_ shell: Shell, revision: String) -> PackageGraph? {
        guard let manifest = Git(shell: shell).show("Package.swift", at: revision) else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("squad-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(manifest.utf8).write(to: folder.appendingPathComponent("Package.swift"))
        } catch { return nil }
        let scratch = folder.appendingPathComponent(".build")
        guard
            let json = try? Shell(directory: folder).run(
                "swift", ["package", "--scratch-path", scratch.path, "dump-package"],
                environment: ["TMPDIR": folder.path])
        else { return nil }
        return try? PackageGraph(dumpPackageJSON: Data(json.utf8))
    }

    /// The error when neither revision compared has a manifest to answer from.
    static func unreadable(_ revisions: [String]) -> ShellError {
        ShellError(
            message: "no readable Package.swift at \(revisions.joined(separator: " or ")); "
                + "commit a manifest SwiftPM can read (swift package dump-package), then ask again")
    }

    /// Builds a graph directly (tests).
    public init(targets: [Target], settings: String = "") { (self.targets, self.settings) = (targets, settings) }

    /// The target whose folder holds `path`, if any.
    public func owningTarget(of path: String) -> String? {
        targets.filter { PathBytes.hasPrefix(path, $0.path + "/") }.max { $0.path.utf8.count < $1.path.utf8.count }?
            .name
    }

    /// `names` plus every target that depends on any of them, directly or not.
    public func dependents(of names: Set<String>) -> Set<String> {
        var result = names
        var changed = true
        while changed {
            changed = false
            for target in targets
            where !result.contains(target.name) && target.dependencies.contains(where: result.contains) {
                result.insert(target.name)
                changed = true
            }
        }
        return result
    }

    /// The cycle through the dependency edges, if there is one, as target names.
    public func cycle() -> [String]? {
        let edges = Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0.dependencies) })
        var state: [String: Int] = [:]
        var stack: [String] = []
        func visit(_ name: String) -> [String]? {
            if state[name] == 1, let start = stack.firstIndex(of: name) { return Array(stack[start...]) + [name] }
            guard state[name] == nil else { return nil }
            state[name] = 1
            stack.append(name)
            for next in edges[name] ?? [] { if let found = visit(next) { return found } }
            stack.removeLast()
            state[name] = 2
            return nil
        }
        for target in targets { if let found = visit(target.name) { return found } }
        return nil
    }
}
