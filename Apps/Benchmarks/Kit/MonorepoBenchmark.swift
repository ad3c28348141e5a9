import CoreTesting
import Foundation

/// `courier-bench monorepo --modules N`: does a squad's inner loop stay as fast when the monorepo grows? It
/// clones the repository twice into a scratch folder, scaffolds synthetic squads with `squad new` (10 in one, N in
/// the other), builds both, and times one squad's inner loop in each, alternately: change its card's text, then
/// `Scripts/test-module` (build and run its own tests). `squad affected`, `lint` and `owners` are timed too.
public enum MonorepoBenchmark {
    /// The smaller size every figure is compared with.
    public static let baseline = 10

    /// The figures at one size.
    public struct Size: Sendable {
        /// How many synthetic squads the clone holds.
        public let modules: Int
        /// Seconds to build everything (tests included) after the squads were added.
        public let build: Double
        /// Seconds of each timed inner loop (card edit, build, its tests), in order.
        public let innerLoops: [Double]
        /// Seconds of `squad affected`, `squad lint` and `squad owners --owner` on the clone.
        public let affected: Double, lint: Double, owners: Double

        /// The figures of one size (the benchmark measures them; tests give them).
        public init(
            modules: Int, build: Double, innerLoops: [Double], affected: Double, lint: Double, owners: Double
        ) {
            (self.modules, self.build, self.innerLoops) = (modules, build, innerLoops)
            (self.affected, self.lint, self.owners) = (affected, lint, owners)
        }

        /// The median inner loop, the figure compared across sizes.
        public var innerLoop: Double { MonorepoBenchmark.median(innerLoops) }
    }

    /// The synthetic squad number `index` (from 1): `Bench001`, a name `squad new` accepts and nothing else uses.
    public static func squadName(_ index: Int) -> String {
        "Bench" + String(repeating: "0", count: max(0, 3 - String(index).count)) + String(index)
    }

    /// The median of `values` (the upper middle one of an even count; 0 for none).
    public static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// The component's source with its card's title changed to `title` (the edit of the inner loop, which its
    /// tests do not pin), or nil when the source draws no `Block(title: "…"`.
    public static func changedCard(_ text: String, title: String) -> String? {
        let edited = text.replacing(/Block\(title: "[^"]*"/, with: "Block(title: \"\(title)\"")
        return edited == text ? nil : edited
    }

    /// The report: one line a figure at each size, and last, the line the goal is read from.
    public static func report(_ sizes: [Size]) -> String {
        var lines = sizes.map { size in
            String(
                format: "%4d squads: build %.1f s; inner loop %.2f s (median of %@); squad affected %.2f s, "
                    + "lint %.2f s, owners %.2f s",
                size.modules, size.build, size.innerLoop,
                size.innerLoops.map { String(format: "%.2f", $0) }.joined(separator: ", "), size.affected, size.lint,
                size.owners)
        }
        if let small = sizes.first, let large = sizes.last {
            lines.append(
                String(
                    format: "inner-loop ratio %d/%d: %.2f", large.modules, small.modules,
                    small.innerLoop > 0 ? large.innerLoop / small.innerLoop : 0))
        }
        return lines.joined(separator: "\n")
    }

    /// Measures at ``baseline`` squads and at `modules`, in two clones of `repository` side by side (removed
    /// afterwards), with `squad` (the binary scaffolding and timed): after one untimed round in each, `loops`
    /// rounds each time the small clone's inner loop then the large one's, so a neighbour's burst on a shared
    /// machine slows both sizes of a round instead of every round of one.
    public static func run(
        modules: Int, repository: URL, squad: URL, loops: Int = 3, log: @escaping (String) -> Void
    ) throws -> [Size] {
        guard modules > baseline else {
            throw BenchmarkError(message: "--modules must be more than \(baseline), the size it is compared with")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("courier-monorepo-\(UUID())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // SwiftPM's lock files, named after the clone's path, go to TMPDIR: inside the scratch folder, they go too.
        let temporary = scratch.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        var workspaces: [Workspace] = []
        var builds: [Double] = []
        for size in [baseline, modules] {
            let clone = scratch.appendingPathComponent("courier-\(size)")
            log("cloning \(repository.path) into \(clone.path), scaffolding \(size) squads…")
            try run("git", ["clone", "--quiet", repository.path, clone.path], in: scratch)
            let workspace = Workspace(root: clone, squad: squad, temporary: temporary, modules: size, log: log)
            for index in 1...size { try workspace.scaffold(squadName(index)) }
            try workspace.commit("\(size) synthetic squads")
            log("building \(size) squads…")
            builds.append(try workspace.timed("swift", ["build", "--build-tests"]))
            workspaces.append(workspace)
        }
        var times: [[Double]] = [[], []]
        for round in 0...loops {
            for (index, workspace) in workspaces.enumerated() {
                let seconds = try workspace.innerLoop(round: round)
                if round > 0 { times[index].append(seconds) }
            }
        }
        return try workspaces.indices.map { index in
            let tools = try workspaces[index].tools()
            return Size(
                modules: workspaces[index].modules, build: builds[index], innerLoops: times[index],
                affected: tools.affected, lint: tools.lint, owners: tools.owners)
        }
    }

    /// Runs a command in `folder`; a failure is an error carrying its last output.
    @discardableResult
    static func run(
        _ command: String, _ arguments: [String], in folder: URL, temporary: URL? = nil,
        limit: Duration = .seconds(3600)
    ) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        if let temporary { environment["TMPDIR"] = temporary.path }
        let result = try ProcessRunner.runBlocking(
            command, arguments, environment: environment, directory: folder, limit: limit)
        guard result.status == 0 else {
            throw BenchmarkError(
                message: "\(command) \(arguments.joined(separator: " ")) failed (exit \(result.status)): "
                    + String((result.stderr + result.stdout).suffix(2000)))
        }
        return result
    }

    /// The scratch clone and what is done in it.
    struct Workspace {
        let root: URL
        let squad: URL
        let temporary: URL
        let modules: Int
        let log: (String) -> Void

        func scaffold(_ name: String) throws {
            try MonorepoBenchmark.run(
                squad.path, ["new", name, "--owner", "@courier/bench"], in: root, temporary: temporary)
        }

        func commit(_ message: String) throws {
            try MonorepoBenchmark.run("git", ["add", "-A"], in: root)
            try MonorepoBenchmark.run(
                "git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", message],
                in: root)
        }

        func timed(_ command: String, _ arguments: [String], expecting: String? = nil) throws -> Double {
            let result = try MonorepoBenchmark.run(command, arguments, in: root, temporary: temporary)
            if let expecting, !(result.stdout + result.stderr).contains(expecting) {
                throw BenchmarkError(
                    message: "\(command) \(arguments.joined(separator: " ")) did not print '\(expecting)': "
                        + String((result.stdout + result.stderr).suffix(2000)))
            }
            return result.elapsed.seconds
        }

        /// One inner loop of the first squad: its card's title changed, then its tests built and run (round 0
        /// is the untimed one).
        func innerLoop(round: Int) throws -> Double {
            let name = MonorepoBenchmark.squadName(1)
            let card = root.appendingPathComponent("Modules/\(name)/\(name)Component.swift")
            let text = try String(contentsOf: card, encoding: .utf8)
            guard let edited = MonorepoBenchmark.changedCard(text, title: "\(name) \(modules)-\(round)") else {
                throw BenchmarkError(message: "\(card.path) has no Block(title: \"…\") to change")
            }
            try Data(edited.utf8).write(to: card)
            let seconds = try timed("Scripts/test-module", [name], expecting: "Suite \(name)Tests passed")
            log(
                "\(modules) squads, inner loop \(round == 0 ? "(untimed)" : "\(round)"): "
                    + String(format: "%.2f s", seconds))
            return seconds
        }

        /// `squad affected` for the card change (committed), `squad lint` and `squad owners --owner`.
        func tools() throws -> (affected: Double, lint: Double, owners: Double) {
            try commit("\(MonorepoBenchmark.squadName(1))'s card, changed")
            return (
                try timed(squad.path, ["affected", "--base", "HEAD~1"]), try timed(squad.path, ["lint"]),
                try timed(squad.path, ["owners", "--owner", "@courier/bench"])
            )
        }
    }
}
