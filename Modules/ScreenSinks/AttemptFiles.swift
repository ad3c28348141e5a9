import Core
import Foundation
import HostIO
import JSON
import SafeText
import ScreenRuntime

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The attempts of a person's actions (a payment), one file each in `<data folder>/attempts`, named by the
/// digest of the backend, the action and its subject (`pay`, `cart=C100`): what is paid, never the place it is
/// sent. A file is written, synced and linked into place before the request goes out, so a run killed mid-send,
/// or one whose connection dropped, leaves the key behind for the next run: the same request is resent under the
/// same key, any other is refused until the person settles it. A 2xx that agrees settles it: the answer is kept
/// in the file for the retention period (24 h by default, as Stripe keeps a key's result), and the same request
/// again is answered from it, never sent under a new key. Two runs at once agree on one attempt (the first link
/// wins; the second reads it).
public final class AttemptFiles: AttemptLedger {
    private let folder: String?
    private let backend: String
    private let fresh: Locked<Bool>
    private let clock: any CourierClock
    private let retention: TimeInterval
    /// The key this run sent under at each attempt file, and whether this run made that attempt.
    private let keys = Locked([String: (key: String, made: Bool)]())
    /// The lock this run holds on each subject it sends for (``claim(_:exclusively:)``), by attempt file.
    private let claims = Locked([String: Int32]())

    /// How long a settled attempt's answer is kept, and how old an unknown one may be and still be resent under
    /// its key: a day, as long as Stripe keeps a key's result.
    public static let defaultRetention: Duration = .seconds(86_400)

    /// Attempts kept under `dataFolder` (nil: nowhere, so nothing can be sent) for requests to `backend` (the
    /// `--api` URL, or "embedded"), kept for `retention` once settled. With `newAttempt` (`--new-attempt`), the first
    /// request of this run replaces the subject's attempt instead of being refused or answered from it: the person
    /// checked an unknown one did not go through, or pays the same subject again on purpose.
    public init(
        dataFolder: String?, backend: String, newAttempt: Bool, clock: any CourierClock,
        retention: Duration = AttemptFiles.defaultRetention
    ) {
        folder = dataFolder.map { $0 + "/attempts" }
        (self.backend, self.clock) = (backend, clock)
        self.retention = Double(retention.components.seconds) + Double(retention.components.attoseconds) / 1e18
        fresh = Locked(newAttempt)
    }

    deinit { claims.withLock { $0.values.forEach { close($0) } } }

    /// How to go on with `request`; see ``AttemptLedger/begin(_:)``.
    public func begin(_ request: ActionRequest) throws(AttemptRefusal) -> AttemptStart {
        guard let folder else {
            throw .unkept(
                "nowhere to keep the \(request.action)'s attempt: HOME and XDG_DATA_HOME are empty; pass --data-dir DIR"
            )
        }
        try make(folder)
        let path = file(for: request)
        let exclusively = fresh.withLock { $0 }
        try claim(path, exclusively: exclusively, request)
        do {
            let start = try exclusively ? replace(request, path) : start(request, path)
            if case .answered = start { release(path) }
            return start
        } catch {
            release(path)
            throw error
        }
    }

    /// A `--new-attempt`: a new attempt (and key) in place of the subject's, whatever it held.
    private func replace(_ request: ActionRequest, _ path: String) throws(AttemptRefusal) -> AttemptStart {
        let key = try keep(request, at: path, replacing: true)
        fresh.withLock { $0 = false }
        keys.withLock { $0[path] = (key, true) }
        return .send(key: key)
    }

    /// The subject's attempt resumed (answered, resent or refused), or a new one kept.
    private func start(_ request: ActionRequest, _ path: String) throws(AttemptRefusal) -> AttemptStart {
        for _ in 0..<3 {
            if let earlier = try read(path) { return try resume(earlier, request, path) }
            if let legacy = try read(legacyFile(for: request)) {
                try migrate(legacy, request, to: path)
                continue
            }
            do {
                let key = try keep(request, at: path, replacing: false)
                keys.withLock { $0[path] = (key, true) }
                return .send(key: key)
            } catch .pending { continue }
        }
        throw .unkept("the attempt file \(SafeText.visible(path)) keeps changing; run again")
    }

    /// Keeps `answer` in the attempt this run sent `request` under (while its file still holds this run's key: a
    /// `--new-attempt` of another run may have replaced it). A file that cannot be rewritten is said, with how to
    /// clean up: left as it is, it would refuse the subject's next request as of unknown outcome.
    public func settle(_ request: ActionRequest, answer: KeptAnswer) throws(AttemptRefusal) {
        guard folder != nil else { return }
        let path = file(for: request)
        defer { release(path) }
        guard let mine = keys.withLock({ $0[path] }), let earlier = try? read(path), earlier.key == mine.key,
            earlier.body == request.body, earlier.settled == nil
        else { return }
        let settled = Settled(at: clock.now(), answer: answer)
        var reason: String?
        do {
            let temporary = try SyncedFile.write(Data(record(earlier, settled: settled).text.utf8), to: path)
            if rename(temporary, path) != 0 {
                reason = String(cString: strerror(errno))
                unlink(temporary)
            }
        } catch { reason = error.reason }
        guard let reason else {
            if let folder { syncFolder(folder) }
            return
        }
        throw .unkept(
            "the \(request.action) of \(request.subjectWords) was done, but its attempt file \(SafeText.visible(path)) "
                + "could not be marked settled (\(reason)): a later \(request.action) of \(request.subjectWords) would "
                + "be refused as of unknown outcome; remove that file, which holds this \(request.action)'s key, once "
                + "you have noted it")
    }

    /// Forgets the attempt of `request` only when this run made it and it is unsettled; one an earlier run sent
    /// stays.
    public func abandon(_ request: ActionRequest) {
        guard let folder else { return }
        let path = file(for: request)
        defer { release(path) }
        guard let mine = keys.withLock({ $0[path] }), mine.made,
            let earlier = try? read(path), earlier.key == mine.key, earlier.body == request.body,
            earlier.settled == nil
        else { return }
        if unlink(path) == 0 { syncFolder(folder) }
    }

    /// A settled attempt's answer and when it was kept.
    private struct Settled {
        let at: Date
        let answer: KeptAnswer
    }

    /// What an attempt file holds.
    private struct Kept {
        let endpoint: String
        let body: Data
        let key: String
        let at: Date
        let fields: [String: JSONValue]
        let settled: Settled?
    }

    /// What to do with `request` given the subject's `earlier` attempt: answer it (settled, the same request,
    /// within the retention), resend it (unknown, the same request, young enough), or refuse it. A settled attempt
    /// is never forgotten by itself: past the retention it answers nothing, and still refuses paying its subject
    /// again unless the person says so (`--new-attempt`).
    private func resume(_ earlier: Kept, _ request: ActionRequest, _ path: String) throws(AttemptRefusal)
        -> AttemptStart
    {
        let same = earlier.endpoint == request.endpoint.path && earlier.body == request.body
        let now = clock.now()
        if let settled = earlier.settled {
            guard now.timeIntervalSince(settled.at) <= retention else {
                let why = "longer ago than the \(Self.age(retention)) it is kept to answer the same again"
                throw .pending(settledLine(earlier, settled, request, why: why))
            }
            guard same else { throw .pending(settledLine(earlier, settled, request, why: "and this one differs")) }
            keys.withLock { $0[path] = (earlier.key, false) }
            return .answered(settled.answer, at: settled.at)
        }
        guard same else { throw .pending(pendingLine(earlier, request, path)) }
        let age = now.timeIntervalSince(earlier.at)
        guard age <= retention else {
            throw .pending(
                "an earlier \(request.action) of \(request.subjectWords) was sent \(Self.age(age)) ago "
                    + "(\(earlier.at.formatted(.iso8601))) and has no known outcome; it is older than the "
                    + "\(Self.age(retention)) a backend may keep its key, so it is not sent again: check whether it "
                    + "went through; if it did not, run again with --new-attempt; if it did, remove "
                    + "\(SafeText.visible(path))")
        }
        keys.withLock { $0[path] = (earlier.key, $0[path]?.key == earlier.key && $0[path]?.made == true) }
        return .send(key: earlier.key)
    }

    /// An unknown attempt an earlier version kept under the place it was sent: the same request takes it over
    /// (under its key), anything else is refused as pending.
    private func migrate(_ legacy: Kept, _ request: ActionRequest, to path: String) throws(AttemptRefusal) {
        let old = legacyFile(for: request)
        guard legacy.body == request.body else { throw .pending(pendingLine(legacy, request, old)) }
        do { _ = try keep(request, at: path, replacing: false, key: legacy.key, at: legacy.at) } catch .pending {
        }
        unlink(old)
    }

    private func file(for request: ActionRequest) -> String {
        let subject = request.subject.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let name = ([backend, request.action] + subject).joined(separator: "\n")
        return (folder ?? "") + "/\(SHA256.hex(Data(name.utf8)).prefix(32)).json"
    }

    /// Where an earlier version kept the attempt of a request: named by the place it is sent.
    private func legacyFile(for request: ActionRequest) -> String {
        let digest = SHA256.hex(Data((backend + "\n" + request.endpoint.path).utf8)).prefix(32)
        return (folder ?? "") + "/\(digest).json"
    }

    private func sentWords(_ earlier: Kept) -> String {
        let sent = (try? JSONValue(parsing: earlier.body)).map { value -> String in
            guard case .object(let fields) = value else { return value.text }
            return fields.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.plain)" }.joined(separator: ", ")
        }
        return SafeText.visible(sent ?? "unreadable")
    }

    private func pendingLine(_ earlier: Kept, _ request: ActionRequest, _ path: String) -> String {
        "an earlier \(request.action) of \(request.subjectWords) to \(SafeText.visible(earlier.endpoint)) "
            + "(\(sentWords(earlier)); sent \(earlier.at.formatted(.iso8601))) has no known outcome and this one "
            + "differs; check whether it went through: if it did not, run again with --new-attempt to send this one "
            + "under a new key; if it did, remove \(SafeText.visible(path))"
    }

    private func settledLine(_ earlier: Kept, _ settled: Settled, _ request: ActionRequest, why: String) -> String {
        "an earlier \(request.action) of \(request.subjectWords) went through at \(settled.at.formatted(.iso8601)) "
            + "(\(sentWords(earlier))), \(why); to do it again on purpose, run again with --new-attempt"
    }

    private func read(_ path: String) throws(AttemptRefusal) -> Kept? {
        // Another run may link its attempt into place between a read that found nothing and the look that
        // follows: that is a file to read again, not one that cannot be read.
        var contents = FileManager.default.contents(atPath: path)
        for _ in 0..<3 where contents == nil {
            if access(path, F_OK) != 0, errno == ENOENT { return nil }
            contents = FileManager.default.contents(atPath: path)
        }
        guard let data = contents else {
            throw .unkept("the attempt file \(SafeText.visible(path)) cannot be read; check it, or --new-attempt")
        }
        guard case .object(let fields)? = try? JSONValue(parsing: data),
            case .string(let endpoint)? = fields["endpoint"],
            case .string(let body)? = fields["body_base64"], let decoded = Data(base64Encoded: body),
            case .string(let key)? = fields["key"], Self.isKey(key), case .string(let at)? = fields["at"],
            let sent = try? Date(at, strategy: .iso8601)
        else { throw notOurs(path) }
        var settled: Settled?
        switch fields["settled"] {
        case nil, .null?: break
        case .object(let kept)?:
            guard case .string(let when)? = kept["at"], let date = try? Date(when, strategy: .iso8601),
                case .object(let answer)? = kept["answer"]
            else { throw notOurs(path) }
            var texts: [String: String] = [:]
            for (name, value) in answer {
                guard case .string(let text) = value else { throw notOurs(path) }
                texts[name] = text
            }
            let unread: String? = if case .string(let why)? = kept["unread"] { why } else { nil }
            settled = Settled(at: date, answer: KeptAnswer(fields: texts, unread: unread))
        default: throw notOurs(path)
        }
        return Kept(endpoint: endpoint, body: decoded, key: key, at: sent, fields: fields, settled: settled)
    }

    private func notOurs(_ path: String) -> AttemptRefusal {
        .pending(
            "the attempt file \(SafeText.visible(path)) is not one this tool wrote, so an earlier attempt's "
                + "outcome cannot be known; check it, then run again with --new-attempt")
    }

    /// The file's record with `settled` kept in it.
    private func record(_ earlier: Kept, settled: Settled) -> JSONValue {
        var fields = earlier.fields
        var kept: [String: JSONValue] = [
            "at": .string(settled.at.formatted(.iso8601)),
            "answer": .object(settled.answer.fields.mapValues(JSONValue.string)),
        ]
        if let unread = settled.answer.unread { kept["unread"] = .string(unread) }
        fields["settled"] = .object(kept)
        return .object(fields)
    }

    /// Writes a new attempt for `request` (with a new key, unless it takes over `key`), synced before it is linked
    /// into place; without `replacing`, an attempt another run linked first wins (`.pending` is thrown to read it).
    private func keep(
        _ request: ActionRequest, at path: String, replacing: Bool, key given: String? = nil, at sent: Date? = nil
    ) throws(AttemptRefusal) -> String {
        let key = given ?? UUID().uuidString.lowercased()
        let record: JSONValue = .object([
            "endpoint": .string(request.endpoint.path), "backend": .string(backend),
            "body_base64": .string(request.body.base64EncodedString()), "key": .string(key),
            "at": .string((sent ?? clock.now()).formatted(.iso8601)), "action": .string(request.action),
            "subject": .object(request.subject.mapValues(JSONValue.string)),
        ])
        let temporary: String
        do { temporary = try SyncedFile.write(Data(record.text.utf8), to: path) } catch {
            errno = error.code
            throw unkept(error.creating ? "cannot create an attempt file in" : "cannot write the attempt in")
        }
        defer { unlink(temporary) }
        if replacing {
            guard rename(temporary, path) == 0 else { throw unkept("cannot move the attempt into") }
        } else if link(temporary, path) != 0 {
            if errno == EEXIST { throw .pending("another run kept an attempt first") }
            throw unkept("cannot move the attempt into")
        }
        if let folder { syncFolder(folder) }
        return key
    }

    /// An age as a line says it: "3 min", "5 h", "2 days".
    static func age(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<60: "\(Int(max(0, seconds))) s"
        case ..<7_200: "\(Int(seconds / 60)) min"
        case ..<172_800: "\(Int(seconds / 3_600)) h"
        default: "\(Int(seconds / 86_400)) days"
        }
    }

    /// Holds the subject's lock file (`<attempt>.lock`) for this run's send: shared by runs that send one attempt
    /// (the same request under one key), exclusive for a `--new-attempt`, which replaces it. So a new attempt never
    /// goes out while another run's send of the subject awaits its answer, and of several at once only one goes.
    /// Released once the outcome is known (or with the process). A lock file that cannot be made (a read-only
    /// folder) is no lock: nothing new can be kept there either.
    private func claim(_ path: String, exclusively: Bool, _ request: ActionRequest) throws(AttemptRefusal) {
        guard claims.withLock({ $0[path] }) == nil else { return }
        let descriptor = open(path + ".lock", O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        guard flock(descriptor, (exclusively ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 else {
            close(descriptor)
            throw .pending(
                "another run is sending a \(request.action) of \(request.subjectWords) now"
                    + (exclusively ? "" : " under a new key") + "; wait for its answer, then run again")
        }
        claims.withLock { $0[path] = descriptor }
    }

    private func release(_ path: String) {
        guard let descriptor = claims.withLock({ $0.removeValue(forKey: path) }) else { return }
        close(descriptor)
    }

    private func make(_ folder: String) throws(AttemptRefusal) {
        var current = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o700) != 0 && errno != EEXIST { throw unkept("cannot create", current) }
        }
        var info = stat()
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .unkept("\(SafeText.visible(folder)) is not a folder; pass another --data-dir")
        }
    }

    /// The backend an attempt belongs to, spelled one way however `--api` spelled it: scheme and host in lower
    /// case, the port always given, repeated and trailing slashes dropped (`HTTP://Host:80//api/` is
    /// `http://host:80/api`). Two names for one machine (`localhost`, `127.0.0.1`) stay two backends.
    public static func backend(_ url: URL) -> String {
        let scheme = (url.scheme ?? "http").lowercased()
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let path = url.path.split(separator: "/").joined(separator: "/")
        return "\(scheme)://\((url.host ?? "").lowercased()):\(port)" + (path.isEmpty ? "" : "/" + path)
    }

    /// Whether `key` is one this tool makes: a UUID's 36 lower-case hex digits and hyphens.
    static func isKey(_ key: String) -> Bool {
        key.utf8.count == 36 && key.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || $0 == 45 }
    }

    private func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private func unkept(_ what: String, _ path: String? = nil) -> AttemptRefusal {
        let code = errno
        let advice =
            switch code {
            case ENOSPC, EDQUOT: "free some space"
            case EACCES, EPERM, EROFS: "make it writable"
            default: "check it"
            }
        return .unkept(
            "\(what) \(SafeText.visible(path ?? folder ?? "")): \(String(cString: strerror(code))); \(advice) or pass "
                + "another --data-dir")
    }
}

extension JSONValue {
    /// A value as a line shows it: a string's text, a number or anything else as JSON.
    fileprivate var plain: String {
        if case .string(let text) = self { return text }
        return text
    }
}
