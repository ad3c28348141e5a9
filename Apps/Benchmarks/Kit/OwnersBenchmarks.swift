import CodeOwnership
import CoreTesting
import Foundation

/// `squad owners` and `squad lint` on a big monorepo's CODEOWNERS, beside the Python `codeowners` package (a
/// port of hmarr/codeowners) answering the same paths in the same run.
enum OwnersBenchmarks {
    /// One CODEOWNERS shape's figures.
    struct Shape: Sendable {
        var name: String
        var rules: Int
        var paths: Int
        /// Microseconds per path through `CodeOwners.ownership(of:)`, best of three.
        var microsecondsPerPath: Double
        /// The same through Python's `codeowners`, with how many answers agreed.
        var peer: (microsecondsPerPath: Double, agreed: Int)?
        /// `squad owners --format json -` on every path minus the same on one path, best of three (seconds).
        var cliSeconds: Double?
        /// How many of the CLI's JSON answers (path and owners, in order) agreed with the in-process ones.
        var cliAgreed: Int?

        var ratio: Double? { peer.map { $0.microsecondsPerPath / microsecondsPerPath } }
    }

    struct Figures: Sendable {
        var shapes: [Shape]
        /// Why the peer was skipped, if it was.
        var peerSkipped: String?
        /// Wall seconds of the release `squad lint` over a repository of `lintFiles` tracked files.
        var lintSeconds: Double?
        var lintFiles: Int

        /// The shape with the lowest speed-up over the peer (or the slowest, without a peer): the figure quoted.
        var worst: Shape {
            shapes.min { ($0.ratio ?? -$0.microsecondsPerPath) < ($1.ratio ?? -$1.microsecondsPerPath) }!
        }
    }

    static func measure(rules: Int, paths: Int, squad: URL?, peer: Bool) throws -> Figures {
        var figures = Figures(shapes: [], lintFiles: paths)
        var python: String?
        if peer {
            do { python = try PythonPeer.install() } catch { figures.peerSkipped = "\(error)" }
        } else {
            figures.peerSkipped = "--quick does not install the peer"
        }
        for shape in OwnersShape.all(rules: rules, paths: paths) {
            let owners = CodeOwners(text: shape.codeowners)
            var answers: [CodeOwners.Ownership] = []
            var best = Double.infinity
            for _ in 0..<3 {
                answers.removeAll(keepingCapacity: true)
                let start = ContinuousClock.now
                for path in shape.paths { answers.append(owners.ownership(of: path)) }
                best = min(best, (ContinuousClock.now - start).seconds)
            }
            let folder = try TemporaryDirectory()
            try folder.write(shape.codeowners, to: "CODEOWNERS")
            try folder.write(shape.paths.joined(separator: "\n"), to: "paths.txt")
            var figure = Shape(
                name: shape.name, rules: owners.rules.count, paths: paths,
                microsecondsPerPath: best / Double(paths) * 1e6)
            if let python {
                let (perPath, theirs) = try PythonPeer.owners(python: python, folder: folder.url)
                let ours = answers.map { $0.owners.joined(separator: " ") }
                let agreed = zip(ours, theirs).filter { $0 == $1 }.count
                figure.peer = (perPath, theirs.count == ours.count ? agreed : 0)
            }
            if let squad {
                let expected = zip(shape.paths, answers).map { CLIAnswer(path: $0, owners: $1.owners) }
                (figure.cliSeconds, figure.cliAgreed) = try cli(
                    squad: squad, shape: shape, folder: folder.url, expected: expected)
            }
            figures.shapes.append(figure)
        }
        if let squad {
            // Kept alive until lint is done: the folder goes when this object does.
            let folder = try TemporaryDirectory()
            figures.lintSeconds = try lint(
                squad: squad, workload: MonorepoWorkload(rules: rules, paths: paths), folder: folder.url)
        }
        return figures
    }

    /// `squad owners --codeowners FILE --format json -` with every path on stdin, minus the same with one path
    /// (process start and parsing cancel out): the lookup-and-print time, best of three; and how many of its
    /// answers agree with `expected`.
    private static func cli(squad: URL, shape: OwnersShape, folder: URL, expected: [CLIAnswer]) throws -> (
        Double, Int
    ) {
        let arguments = [
            "owners", "--codeowners", folder.appendingPathComponent("CODEOWNERS").path, "--format", "json", "-",
        ]
        let all = shape.paths.joined(separator: "\n") + "\n"
        var best = Double.infinity
        var agreed = 0
        for _ in 0..<3 {
            let one = try ProcessRunner.runBlocking(
                squad.path, arguments, directory: folder, stdin: shape.paths[0] + "\n")
            let every = try ProcessRunner.runBlocking(
                squad.path, arguments, directory: folder, stdin: all, limit: .seconds(120))
            guard every.status == 0, one.status == 0 else {
                throw BenchmarkError(message: "squad owners failed: \(every.stderr.prefix(200))")
            }
            best = min(best, every.elapsed.seconds - one.elapsed.seconds)
            let answers = try JSONDecoder().decode([CLIAnswer].self, from: Data(every.stdout.utf8))
            agreed = answers.count == expected.count ? zip(answers, expected).filter { $0 == $1 }.count : 0
        }
        return (max(best, 0), agreed)
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
