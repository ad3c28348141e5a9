import CodeOwnership
import CoreTesting
import Foundation

/// `squad owners` and `squad lint` on a big monorepo's CODEOWNERS, beside the Python `codeowners` package (a
/// port of hmarr/codeowners) and, when pointed at a checkout and Go is installed, hmarr/codeowners itself,
/// answering the same paths in the same run.
enum OwnersBenchmarks {
    /// One CODEOWNERS shape's figures.
    struct Shape: Sendable {
        var name: String
        var rules: Int
        var paths: Int
        /// Microseconds per path through `CodeOwners.ownership(ofBytes:)` on one buffer of lines, the best of
        /// five rounds that each take every shape in turn.
        var microsecondsPerPath: Double
        /// How many segments the shape's paths have on average: a lookup's work follows them, so a shape of
        /// deep paths costs more per path for that reason alone.
        var segmentsPerPath: Double
        /// The same through Python's `codeowners` on the first `PythonPeer.sample` paths, with how many agreed.
        var peer: Peer?
        /// The same through hmarr/codeowners (Go).
        var goPeer: Peer?
        /// `squad owners --format json -` on every path minus the same on one path, best of three (seconds).
        var cliSeconds: Double?
        /// The same run's processor time (user and system) per path, start-up and parsing subtracted: the
        /// whole process's cost, as the issue that set the spread target measured each tool.
        var cliCPUMicrosecondsPerPath: Double?
        /// How many of the CLI's JSON answers (path and owners, in order) agreed with the in-process ones.
        var cliAgreed: Int?

        var nanosecondsPerSegment: Double { microsecondsPerPath * 1000 / max(segmentsPerPath, 1) }
        var ratio: Double? { peer.map { $0.microsecondsPerPath / microsecondsPerPath } }
        var goRatio: Double? { goPeer.map { $0.microsecondsPerPath / microsecondsPerPath } }
    }

    /// A peer's figure on one shape: its cost per path, and how many of the paths it answered agree with ours.
    struct Peer: Sendable {
        var microsecondsPerPath: Double
        var agreed: Int
        var paths: Int
    }

    struct Figures: Sendable {
        var shapes: [Shape]
        /// Why the peer was skipped, if it was.
        var peerSkipped: String?
        /// Why the Go peer was skipped, if it was.
        var goSkipped: String?
        /// Wall seconds of the release `squad lint` over a repository of `lintFiles` tracked files.
        var lintSeconds: Double?
        var lintFiles: Int

        /// The shape with the lowest speed-up over the peer (or the slowest, without a peer): the figure quoted.
        var worst: Shape {
            shapes.min { ($0.ratio ?? -$0.microsecondsPerPath) < ($1.ratio ?? -$1.microsecondsPerPath) }!
        }

        /// The slowest shape's cost per path over the fastest's: how much a file's shape can cost.
        var spread: Double {
            let costs = shapes.map(\.microsecondsPerPath)
            return (costs.max() ?? 0) / max(costs.min() ?? 1, 1e-9)
        }

        /// The same for the whole process's processor time per path, when the CLI ran.
        var spreadWholeProcess: Double? {
            let costs = shapes.compactMap(\.cliCPUMicrosecondsPerPath)
            guard costs.count == shapes.count, let fastest = costs.min(), fastest > 0 else { return nil }
            return (costs.max() ?? 0) / fastest
        }

        /// The same per path segment: how much a file's shape costs once the paths' depth is set aside.
        var spreadPerSegment: Double {
            let costs = shapes.map(\.nanosecondsPerSegment)
            return (costs.max() ?? 0) / max(costs.min() ?? 1, 1e-9)
        }

        /// The shape with the lowest speed-up over the Go peer, when it ran.
        var worstAgainstGo: Shape? {
            shapes.filter { $0.goRatio != nil }.min { $0.goRatio! < $1.goRatio! }
        }
    }

    /// Measures `shapes` (the generated ones unless given: `--shapes DIR` brings a reviewer's own).
    static func measure(
        rules: Int, paths: Int, squad: URL?, peer: Bool, goCheckout: URL? = nil, shapes: [OwnersShape]? = nil
    ) throws -> Figures {
        var figures = Figures(shapes: [], lintFiles: paths)
        var python: String?
        if peer {
            do { python = try PythonPeer.install() } catch { figures.peerSkipped = "\(error)" }
        } else {
            figures.peerSkipped = "--quick does not install the peer"
        }
        let goFolder = try TemporaryDirectory()
        var go: URL?
        if let goCheckout {
            do { go = try GoPeer.build(checkout: goCheckout, in: goFolder.url) } catch {
                figures.goSkipped = "\(error)"
            }
        } else {
            figures.goSkipped = "not pointed at a checkout (--go-peer DIR)"
        }
        let shapes = shapes ?? OwnersShape.all(rules: rules, paths: paths)
        let timings = lookups(shapes)
        var folders: [TemporaryDirectory] = []
        for (shape, (owners, best, answers)) in zip(shapes, timings) {
            let folder = try TemporaryDirectory()
            try folder.write(shape.codeowners, to: "CODEOWNERS")
            let sample = Array(shape.paths.prefix(PythonPeer.sample))
            try folder.write(sample.joined(separator: "\n"), to: "paths.txt")
            var figure = Shape(
                name: shape.name, rules: owners.rules.count, paths: shape.paths.count,
                microsecondsPerPath: best / Double(max(shape.paths.count, 1)) * 1e6,
                segmentsPerPath: Double(shape.paths.reduce(0) { $0 + $1.split(separator: "/").count })
                    / Double(max(shape.paths.count, 1)))
            let ours = answers.prefix(sample.count).map { $0.owners.joined(separator: " ") }
            let agreement = { (theirs: [String]) in
                theirs.count == ours.count ? zip(ours, theirs).filter { $0 == $1 }.count : 0
            }
            if let python {
                let (perPath, theirs) = try PythonPeer.owners(python: python, folder: folder.url)
                figure.peer = Peer(microsecondsPerPath: perPath, agreed: agreement(theirs), paths: sample.count)
            }
            if let go {
                let (perPath, theirs) = try GoPeer.owners(binary: go, folder: folder.url)
                figure.goPeer = Peer(microsecondsPerPath: perPath, agreed: agreement(theirs), paths: sample.count)
            }
            figures.shapes.append(figure)
            folders.append(folder)
        }
        if let squad {
            // Three rounds that each run every shape in turn, as the lookups are timed.
            var runs = shapes.map { _ in CLIRuns() }
            let expected = zip(shapes, timings).map { shape, timing in
                zip(shape.paths, timing.answers).map { CLIAnswer(path: $0, owners: $1.owners) }
            }
            let listings = shapes.map { $0.paths.joined(separator: "\n") + "\n" }
            for _ in 0..<3 {
                for index in shapes.indices {
                    try cli(
                        squad: squad, shape: shapes[index], listing: listings[index], folder: folders[index].url,
                        expected: expected[index], into: &runs[index])
                }
            }
            for index in shapes.indices {
                figures.shapes[index].cliSeconds = runs[index].seconds
                figures.shapes[index].cliAgreed = runs[index].agreed
                figures.shapes[index].cliCPUMicrosecondsPerPath =
                    runs[index].cpuSeconds / Double(max(shapes[index].paths.count, 1)) * 1e6
            }
        }
        if let squad {
            // Kept alive until lint is done: the folder goes when this object does.
            let folder = try TemporaryDirectory()
            figures.lintSeconds = try lint(
                squad: squad, workload: MonorepoWorkload(rules: rules, paths: paths), folder: folder.url)
        }
        return figures
    }

    /// Each shape's lookups timed in rounds that take every shape in turn, the best round of each kept: a burst
    /// of a neighbour's load (seconds long on a shared machine) then slows one round of every shape, not every
    /// round of one shape, which had made the spread between shapes swing from 3.4 to 5.5 between two runs.
    private static func lookups(_ shapes: [OwnersShape]) -> [(
        owners: CodeOwners, seconds: Double, answers: [CodeOwners.Ownership]
    )] {
        let prepared = shapes.map { shape -> (owners: CodeOwners, listing: [UInt8], ends: [Int]) in
            // The paths as `squad owners -` holds them, one buffer read in place line by line, so the figure is
            // the lookup's and not where a hundred thousand separate strings happen to sit in memory.
            var ends: [Int] = []
            var end = 0
            for path in shape.paths {
                end += path.utf8.count
                ends.append(end)
                end += 1
            }
            return (CodeOwners(text: shape.codeowners), Array(shape.paths.joined(separator: "\n").utf8), ends)
        }
        var results = prepared.map { ($0.owners, seconds: Double.infinity, answers: [CodeOwners.Ownership]()) }
        for _ in 0..<rounds {
            for (index, shape) in prepared.enumerated() {
                var answers: [CodeOwners.Ownership] = []
                answers.reserveCapacity(shape.ends.count)
                func pass(_ ends: ArraySlice<Int>) {
                    answers.removeAll(keepingCapacity: true)
                    shape.listing.withUnsafeBufferPointer { listing in
                        var from = 0
                        for end in ends {
                            answers.append(
                                shape.owners.ownership(ofBytes: UnsafeBufferPointer(rebasing: listing[from..<end])))
                            from = end + 1
                        }
                    }
                }
                // The shape's tables back in the caches the previous shape took over (the 5,000-rule shapes'
                // scanners are megabytes), as they are after the first thousands of paths of a long listing.
                pass(shape.ends.prefix(10_000))
                let start = ContinuousClock.now
                pass(shape.ends[...])
                results[index].seconds = min(results[index].seconds, (ContinuousClock.now - start).seconds)
                results[index].answers = answers
            }
        }
        return results
    }

    /// How many rounds the in-process lookups take.
    static let rounds = 5

    /// The best of each kind of `squad owners` run, then their difference: the best difference of pairs let one
    /// slow one-path run (a neighbour's burst) make a whole run look free.
    struct CLIRuns {
        var oneWall = Double.infinity
        var everyWall = Double.infinity
        var oneCPU = Double.infinity
        var everyCPU = Double.infinity
        var agreed = 0

        var seconds: Double { max(everyWall - oneWall, 0) }
        var cpuSeconds: Double { max(everyCPU - oneCPU, 0) }
    }

    /// `squad owners --codeowners FILE --format json -` with `listing` (every path) on stdin and with one path
    /// (process start and parsing cancel out), once each, kept in `runs` if faster: the lookup-and-print wall
    /// time and processor time; and how many of its answers agree with `expected`.
    private static func cli(
        squad: URL, shape: OwnersShape, listing: String, folder: URL, expected: [CLIAnswer], into runs: inout CLIRuns
    ) throws {
        let arguments = [
            "owners", "--codeowners", folder.appendingPathComponent("CODEOWNERS").path, "--format", "json", "-",
        ]
        // The children's processor time grows by each run's as it is waited for, one run at a time.
        let before = cpuSeconds(ofChildren: true)
        let one = try ProcessRunner.runBlocking(squad.path, arguments, directory: folder, stdin: shape.paths[0] + "\n")
        let between = cpuSeconds(ofChildren: true)
        let every = try ProcessRunner.runBlocking(
            squad.path, arguments, directory: folder, stdin: listing, limit: .seconds(120))
        runs.everyCPU = min(runs.everyCPU, cpuSeconds(ofChildren: true) - between)
        runs.oneCPU = min(runs.oneCPU, between - before)
        guard every.status == 0, one.status == 0 else {
            throw BenchmarkError(message: "squad owners failed: \(every.stderr.prefix(200))")
        }
        runs.oneWall = min(runs.oneWall, one.elapsed.seconds)
        runs.everyWall = min(runs.everyWall, every.elapsed.seconds)
        let answers = try JSONDecoder().decode([CLIAnswer].self, from: Data(every.stdout.utf8))
        runs.agreed = answers.count == expected.count ? zip(answers, expected).filter { $0 == $1 }.count : 0
    }

    /// One object of `squad owners --format json`, as far as agreement goes.
    struct CLIAnswer: Decodable, Equatable {
        let path: String
        let owners: [String]
    }

    /// The best of three `squad lint` runs in a git repository whose index tracks every workload path (the
    /// files need not exist on disk: lint reads the index, as `git ls-files` does).
    private static func lint(squad: URL, workload: MonorepoWorkload, folder: URL) throws -> Double {
        let repository = folder.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        try workload.codeowners.write(
            to: repository.appendingPathComponent("CODEOWNERS"), atomically: true, encoding: .utf8)
        let git = { (arguments: [String], stdin: String?) throws -> String in
            let run = try ProcessRunner.runBlocking("git", arguments, directory: repository, stdin: stdin)
            guard run.status == 0 else { throw BenchmarkError(message: "git \(arguments[0]): \(run.stderr)") }
            return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try git(["init", "-q"], nil)
        let empty = try git(["hash-object", "-w", "--stdin"], "")
        let entries = workload.paths.map { "100644 \(empty)\t\($0)" }.joined(separator: "\n") + "\n"
        _ = try git(["update-index", "--add", "--index-info"], entries)
        _ = try git(["add", "CODEOWNERS"], nil)
        var best = Double.infinity
        for _ in 0..<3 {
            let run = try ProcessRunner.runBlocking(squad.path, ["lint"], directory: repository, limit: .seconds(120))
            guard run.stdout.contains("lint:") else {
                throw BenchmarkError(message: "squad lint printed no summary: \(run.stderr)")
            }
            best = min(best, run.elapsed.seconds)
        }
        return best
    }
}

/// A CODEOWNERS file and a file list shaped like a big monorepo: most rules under `/Modules/…` (a rule per module,
/// then sources, tests and resources of some), some `*.ext`, `**/dir/` and `docs/…/**` rules; most files under
/// `Modules/`, some docs and apps. Deterministic, so every run measures the same repository.
struct MonorepoWorkload {
    let codeowners: String
    let paths: [String]

    init(rules: Int, paths count: Int) {
        var random = SplitMix(seed: 42)
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        let modules = max(rules / 5, 1)
        var lines = ["* @org/platform"]
        for module in 0..<modules { lines.append("/Modules/Mod\(module)/ @org/team\(module % 40)") }
        var index = 0
        while lines.count < rules {
            let module = pick(modules)
            let team = "@org/team\(pick(40))"
            switch index % 10 {
            case 0, 1: lines.append("/Modules/Mod\(module)/Sources/*.swift \(team)")
            case 2, 3: lines.append("/Modules/Mod\(module)/Tests/ @org/qa\(pick(8))")
            case 4: lines.append("/Modules/Mod\(module)/Resources/**/*.json \(team)")
            case 5: lines.append("/Modules/Mod\(module)/Sources/Generated/ @org/platform")
            case 6: lines.append("/Modules/Mod\(module)/README.md @org/docs")
            case 7: lines.append("*.gen\(index) \(team)")
            case 8: lines.append("**/Fixtures\(index % 50)/ @org/qa\(pick(8))")
            default: lines.append("docs/area\(index % 60)/** \(team)")
            }
            index += 1
        }
        codeowners = lines.joined(separator: "\n") + "\n"
        let folders = ["Sources", "Sources/Generated", "Tests", "Resources/images", "Resources", "Fixtures3"]
        let extensions = ["swift", "swift", "swift", "json", "md", "gen17", "gen27"]
        paths = (0..<count).map { number in
            switch pick(20) {
            case 0, 1: return "docs/area\(pick(80))/page\(number).md"
            case 2: return "Apps/App\(pick(10))/File\(number).swift"
            default:
                let folder = folders[pick(folders.count)]
                let file = number % 97 == 0 ? "README.md" : "File\(number).\(extensions[pick(extensions.count)])"
                return "Modules/Mod\(pick(modules + 20))/\(folder)/\(file)"
            }
        }
    }
}

/// The Python `codeowners` package in the benchmark's own virtual environment (`.build/bench-venv`), installed
/// from PyPI on first use.
enum PythonPeer {
    /// How many of a shape's paths the peers answer: enough for a steady cost per path, few enough that a
    /// peer trying 5,000 rules per path finishes in a minute.
    static let sample = 20_000

    static func install() throws -> String {
        let venv = URL(fileURLWithPath: ".build/bench-venv").standardizedFileURL
        let python = venv.appendingPathComponent("bin/python").path
        if (try? ProcessRunner.runBlocking(python, ["-c", "import codeowners"]).status) == 0 { return python }
        let create = try ProcessRunner.runBlocking("python3", ["-m", "venv", venv.path], limit: .seconds(120))
        guard create.status == 0 else { throw BenchmarkError(message: "python3 -m venv failed: \(create.stderr)") }
        let pip = try ProcessRunner.runBlocking(
            venv.appendingPathComponent("bin/pip").path, ["install", "-q", "codeowners"], limit: .seconds(300))
        guard pip.status == 0 else {
            throw BenchmarkError(message: "pip install codeowners failed (offline?): \(pip.stderr.prefix(200))")
        }
        return python
    }

    /// Microseconds per path (the lookups alone, parsing excluded, as on our side) and each path's owners.
    static func owners(python: String, folder: URL) throws -> (Double, [String]) {
        let script = """
            import sys, time
            from codeowners import CodeOwners
            folder = sys.argv[1]
            owners = CodeOwners(open(folder + "/CODEOWNERS").read())
            paths = open(folder + "/paths.txt").read().split("\\n")
            start = time.perf_counter()
            answers = [owners.of(path) for path in paths]
            elapsed = time.perf_counter() - start
            with open(folder + "/peer.txt", "w") as out:
                out.write("\\n".join(" ".join(name for _, name in answer) for answer in answers))
            print(elapsed / len(paths) * 1e6)
            """
        let run = try ProcessRunner.runBlocking(python, ["-c", script, folder.path], limit: .seconds(600))
        guard run.status == 0, let perPath = Double(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchmarkError(message: "the Python peer failed: \(run.stderr.prefix(300))")
        }
        let answers = try String(contentsOf: folder.appendingPathComponent("peer.txt"), encoding: .utf8)
        return (perPath, answers.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }
}

/// hmarr/codeowners (Go), built from a source checkout the benchmark is pointed at, offline, with the Go
/// toolchain on PATH: a tiny program that times `Ruleset.Match` on every path, as the Python peer does.
enum GoPeer {
    static func build(checkout: URL, in folder: URL) throws -> URL {
        guard FileManager.default.fileExists(atPath: checkout.appendingPathComponent("match.go").path) else {
            throw BenchmarkError(message: "\(checkout.path) is not a hmarr/codeowners checkout (no match.go)")
        }
        let version = try? ProcessRunner.runBlocking("go", ["version"])
        guard version?.status == 0 else { throw BenchmarkError(message: "no Go toolchain on PATH") }
        let module = """
            module courierpeer

            go 1.18

            require github.com/hmarr/codeowners v1.0.0

            replace github.com/hmarr/codeowners => \(checkout.standardizedFileURL.path)
            """
        let program = """
            package main

            import (
            \t"fmt"
            \t"os"
            \t"strings"
            \t"time"

            \t"github.com/hmarr/codeowners"
            )

            func main() {
            \tfile, err := os.Open(os.Args[1] + "/CODEOWNERS")
            \tif err != nil {
            \t\tpanic(err)
            \t}
            \trules, err := codeowners.ParseFile(file)
            \tif err != nil {
            \t\tpanic(err)
            \t}
            \tdata, _ := os.ReadFile(os.Args[1] + "/paths.txt")
            \tpaths := strings.Split(string(data), "\\n")
            \tanswers := make([]string, len(paths))
            \tstart := time.Now()
            \tfor i, path := range paths {
            \t\trule, err := rules.Match(path)
            \t\tif err != nil || rule == nil {
            \t\t\tcontinue
            \t\t}
            \t\tnames := make([]string, len(rule.Owners))
            \t\tfor j, owner := range rule.Owners {
            \t\t\tnames[j] = owner.String()
            \t\t}
            \t\tanswers[i] = strings.Join(names, " ")
            \t}
            \telapsed := time.Since(start)
            \tos.WriteFile(os.Args[1]+"/go-peer.txt", []byte(strings.Join(answers, "\\n")), 0o644)
            \tfmt.Println(float64(elapsed.Nanoseconds()) / 1000 / float64(len(paths)))
            }
            """
        try module.write(to: folder.appendingPathComponent("go.mod"), atomically: true, encoding: .utf8)
        try program.write(to: folder.appendingPathComponent("main.go"), atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["GOFLAGS"] = "-mod=mod"
        environment["GOPROXY"] = "off"
        environment["GOTOOLCHAIN"] = "local"
        let binary = folder.appendingPathComponent("peer")
        let build = try ProcessRunner.runBlocking(
            "go", ["build", "-o", binary.path, "."], environment: environment, directory: folder, limit: .seconds(300))
        guard build.status == 0 else {
            throw BenchmarkError(message: "building the Go peer failed: \(build.stderr.prefix(300))")
        }
        return binary
    }

    /// Microseconds per path (parsing excluded) and each path's owners.
    static func owners(binary: URL, folder: URL) throws -> (Double, [String]) {
        let run = try ProcessRunner.runBlocking(binary.path, [folder.path], limit: .seconds(600))
        guard run.status == 0, let perPath = Double(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchmarkError(message: "the Go peer failed: \(run.stderr.prefix(300))")
        }
        let answers = try String(contentsOf: folder.appendingPathComponent("go-peer.txt"), encoding: .utf8)
        return (perPath, answers.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }
}
