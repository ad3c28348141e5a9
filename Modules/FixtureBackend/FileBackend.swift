import Core
import Foundation

/// Serves a directory laid out like the HTTP API, with latency, faults and timelines declared in the tree itself
/// (Scripts/fault-server reads the same files):
/// - `_faults.json` beside the files maps a file name to `{"delay_ms": 1500, "status": 500, "hang": true,
///   "body": "…"}`;
/// - a POST (``send(_:body:headers:)``) to `folder/NAME` is answered by `folder/_NAME.post.json`, after the
///   fault `_faults.json` declares for `NAME`; a folder without that file answers 404;
/// - `_timeline.json` maps a file name to steps `[[0, "_details.preparing.json"], [15, {"status": 503}], …]`:
///   from that many seconds after the folder's first request, the file answers with that other file's bytes
///   or that fault. A live demo order is a folder with a timeline.
///
/// It serves several trees laid over each other as one (the host's screens, layouts and declarations, and each
/// squad's own answers, `Modules/<Name>/Fixtures`): a path is answered by the one tree that has it, a folder's
/// files may come from different trees, and a path two trees both give is refused (one line naming both), never
/// silently shadowed by the other. Faults and timelines are declared in the first tree only: a later tree's
/// `_faults.json` or `_timeline.json` is refused, so no squad's file makes another's answer fail. Given whose each
/// later tree is and what every squad claims (``init(host:squads:claims:clock:)``, as the host builds it), a file
/// a squad's tree may not hold (``FixtureClaims``: a screen, a layout, another squad's endpoint) is refused too,
/// one line naming it, the tree and the rule: a tree laid beside a binary by hand is held to what `squad lint` checks.
public final class FileBackend: Backend {
    /// One declared fault; every field is optional.
    struct Fault: Decodable {
        var delay_ms: Int?
        var status: Int?
        var hang: Bool?
        var body: String?
    }

    private let roots: [String]
    /// Whose each root is, by index: nil for the host's (or when nobody said).
    private let owners: [String?]
    private let claims: FixtureClaims?
    private let clock: any CourierClock
    /// When each folder with a timeline was first asked for something.
    private let timelineStarts = Locked<[String: Date]>([:])

    /// Serves files below `root` alone; delays run on `clock`.
    public convenience init(root: URL, clock: any CourierClock) {
        self.init(rootPaths: [root.standardizedFileURL.path], clock: clock)
    }

    /// Serves the folders at `rootPaths` laid over each other; delays run on `clock`. Hosts on a start-up budget
    /// use this one: the first `URL` operation in a process costs more than serving a file.
    public init(rootPaths: [String], clock: any CourierClock) {
        roots = rootPaths.map { FileBackend.realPath($0) ?? $0 }
        owners = roots.map { _ in nil }
        claims = nil
        self.clock = clock
    }

    /// Serves the host's tree (screens, layouts, declarations) with each squad's tree (`squads`: the squad and its
    /// folder) laid over it, each squad's files held to `claims`; delays run on `clock`.
    public init(
        host: String, squads: [(squad: String, path: String)], claims: FixtureClaims,
        clock: any CourierClock
    ) {
        roots = ([host] + squads.map(\.path)).map { FileBackend.realPath($0) ?? $0 }
        owners = [nil] + squads.map(\.squad)
        self.claims = claims
        self.clock = clock
    }

    /// Reads the endpoint's file after applying its declared fault. Paths are plain strings: URL arithmetic
    /// costs more than the read itself, and endpoint segments are already checked (no `..`, `/` or dot files).
    public func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        let path = endpoint.path
        guard !endpoint.segments.contains(where: { $0.hasPrefix("_") }) else { throw .notFound(path: path) }
        let name = endpoint.segments.last ?? ""
        let folder = Array(endpoint.segments.dropLast())
        var resolved = try locate(endpoint.segments, path: path)
        var fault = try faults(in: folder, for: path)[name]
        switch try timelineStep(in: folder, for: name, path: path) {
        case .file(let source)?:
            resolved = try locate(folder + [source], path: path)
            fault = nil
        case .fault(let scheduled)?: fault = scheduled
        case nil: break
        }
        if let delay = fault?.delay_ms { try await sleep(.milliseconds(delay), path: path) }
        if fault?.hang == true { try await sleep(.seconds(86_400), path: path) }
        if let status = fault?.status, !(200..<300).contains(status) {
            throw status == 404 ? .notFound(path: path) : .httpStatus(status, path: path)
        }
        if let body = fault?.body { return Data(body.utf8) }
        guard let resolved else { throw .notFound(path: path) }
        if let data = FileManager.default.contents(atPath: resolved) { return data }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .notFound(path: path)
        }
        throw .transport("cannot read fixture \(resolved); \(Self.whyUnreadable(resolved))", path: path)
    }

    /// What to do about a fixture that exists and does not read: the system's reason when it is not the file's
    /// own (no descriptor left under a low `ulimit -n`), else its permissions.
    private static func whyUnreadable(_ file: String) -> String {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        let reason = errno
        if descriptor >= 0 { close(descriptor) }
        guard reason == EMFILE || reason == ENFILE else { return "check its permissions" }
        return "too many open files; raise the limit (ulimit -n) or close some"
    }

    /// Answers a POST from the tree (`_NAME.post.json` beside where `NAME` would be), after `NAME`'s declared
    /// fault; the body and headers are not read (the fault server records them for tests). A POST that hangs, or
    /// is cancelled while it waits, counts as sent: ``BackendError/unanswered(_:path:)``, as over HTTP.
    public func send(_ endpoint: Endpoint, body: Data, headers: [String: String]) async throws(BackendError) -> Data {
        let name = endpoint.segments.last ?? ""
        let folder = Array(endpoint.segments.dropLast())
        let segments = folder + ["_" + name + ".post.json"]
        let fault = try faults(in: folder, for: endpoint.path)[name]
        if let delay = fault?.delay_ms { try await sleep(.milliseconds(delay), path: endpoint.path, sent: true) }
        if fault?.hang == true {
            try await sleep(.seconds(86_400), path: endpoint.path, sent: true)
            throw .unanswered("no answer", path: endpoint.path)
        }
        if let status = fault?.status, !(200..<300).contains(status) {
            throw status == 404 ? .notFound(path: endpoint.path) : .httpStatus(status, path: endpoint.path)
        }
        if let body = fault?.body { return Data(body.utf8) }
        let answer: Endpoint
        do { answer = try Endpoint(segments: segments) } catch { throw .notFound(path: endpoint.path) }
        guard let file = try locate(answer.segments, path: endpoint.path),
            let data = FileManager.default.contents(atPath: file)
        else {
            throw .notFound(path: endpoint.path)
        }
        return data
    }

    /// Where the file at `segments` really is, in the one tree that gives it, or nil when none does; a path two
    /// trees give is refused, naming both (a squad's answer never silently replaces another's or the host's).
    private func locate(_ segments: [String], path: String) throws(BackendError) -> String? {
        var found: (root: String, file: String)?
        for (root, owner) in zip(roots, owners) {
            guard let file = try locate(segments, in: root, path: path) else { continue }
            let relative = segments.joined(separator: "/")
            if let owner, let why = claims?.refusal(of: relative, in: owner) {
                throw .invalidRequest(
                    "fixture \(relative) is in \(root), \(owner)'s tree: \(why); \(FixtureClaims.rule)")
            }
            if let first = found {
                throw .invalidRequest(
                    "fixture \(segments.joined(separator: "/")) is in two trees, \(first.root) and \(root); "
                        + "keep it in the one whose squad owns it")
            }
            found = (root, file)
        }
        return found?.file
    }

    /// Where a folder's declaration (`_faults.json`, `_timeline.json`) is: in the first tree (the host's) only, so
    /// one squad's file never makes another squad's answer fail or change; one in a later tree is refused, naming it.
    private func declaration(_ segments: [String], path: String) throws(BackendError) -> String? {
        guard let first = roots.first else { return nil }
        for root in roots.dropFirst() where try locate(segments, in: root, path: path) != nil {
            throw .invalidRequest(
                "fixture \(segments.joined(separator: "/")) is in \(root); faults and timelines are declared in the "
                    + "first tree only, \(first)")
        }
        return try locate(segments, in: first, path: path)
    }

    /// Where `segments` really is below `root`, or nil when it does not exist. Each segment below the root is
    /// looked at once (`lstat`), and only a symlink is resolved, so no link on the way can lead out of the tree.
    private func locate(_ segments: [String], in root: String, path: String) throws(BackendError) -> String? {
        var current = root
        for segment in segments {
            let next = current + "/" + segment
            var info = stat()
            guard lstat(next, &info) == 0 else { return nil }
            guard info.st_mode & S_IFMT == S_IFLNK else {
                current = next
                continue
            }
            guard let target = FileBackend.realPath(next) else { return nil }
            guard target.hasPrefix(root + "/") else {
                throw .invalidRequest("\(path) resolves outside the served directory")
            }
            current = target
        }
        return current
    }

    private func sleep(_ duration: Duration, path: String, sent: Bool = false) async throws(BackendError) {
        do { try await clock.sleep(for: duration) } catch {
            throw sent
                ? .unanswered("cancelled after the request was sent", path: path) : .transport("cancelled", path: path)
        }
    }

    private func faults(in folder: [String], for path: String) throws(BackendError) -> [String: Fault] {
        guard let file = try declaration(folder + ["_faults.json"], path: path),
            let data = FileManager.default.contents(atPath: file)
        else { return [:] }
        do { return try JSONDecoder().decode([String: Fault].self, from: data) } catch {
            throw .transport(
                "fixture tree is broken: _faults.json beside it is not valid: \(Failure(describing: error).reason)",
                path: path)
        }
    }

    /// One step of a timeline: another file's bytes, or a fault.
    enum Step: Decodable {
        case file(String)
        case fault(Fault)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let file = try? container.decode(String.self) {
                guard !file.contains("/") else {
                    throw DecodingError.dataCorruptedError(
                        in: container, debugDescription: "a step names a file beside it")
                }
                self = .file(file)
            } else {
                self = .fault(try container.decode(Fault.self))
            }
        }
    }

    /// A timeline entry: from `seconds` after the first request, answer with `step`.
    struct TimedStep: Decodable {
        let seconds: Double
        let step: Step

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            seconds = try container.decode(Double.self)
            step = try container.decode(Step.self)
        }
    }

    /// The step in force for `name` now, or nil when the folder has no timeline for it.
    private func timelineStep(in segments: [String], for name: String, path: String) throws(BackendError) -> Step? {
        guard let file = try declaration(segments + ["_timeline.json"], path: path),
            let data = FileManager.default.contents(atPath: file)
        else { return nil }
        let folder = segments.joined(separator: "/")
        let timeline: [String: [TimedStep]]
        do { timeline = try JSONDecoder().decode([String: [TimedStep]].self, from: data) } catch {
            throw .transport(
                "fixture tree is broken: _timeline.json beside it is not valid: \(Failure(describing: error).reason)",
                path: path)
        }
        let now = clock.now()
        let start = timelineStarts.withLock { starts in
            if starts[folder] == nil { starts[folder] = now }
            return starts[folder]!
        }
        let elapsed = now.timeIntervalSince(start)
        return timeline[name]?.last { $0.seconds <= elapsed }?.step
    }

    /// The canonical path (symlinks, `.` and `..` resolved), or nil when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
