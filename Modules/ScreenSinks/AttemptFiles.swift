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
/// digest of the backend and the place the action is sent (`carts/C100/pay`). A file is written, synced and
/// linked into place before the request goes out, so a run killed mid-send, or one whose connection dropped,
/// leaves the key behind for the next run: the same request is resent under the same key, any other is refused
/// until the person settles it. Two runs at once agree on one attempt (the first link wins; the second reads it).
public final class AttemptFiles: AttemptLedger {
    private let folder: String?
    private let backend: String
    private let fresh: Locked<Bool>
    private let clock: any CourierClock
    /// The key this run sent under at each attempt file, and whether this run made that attempt.
    private let keys = Locked([String: (key: String, made: Bool)]())

    /// Attempts kept under `dataFolder` (nil: nowhere, so nothing can be sent) for requests to `backend` (the
    /// `--api` URL, or "embedded"). With `newAttempt` (`--new-attempt`), the first request of this run replaces an
    /// unsettled attempt instead of being refused: the person checked it and says it did not go through.
    public init(dataFolder: String?, backend: String, newAttempt: Bool, clock: any CourierClock) {
        folder = dataFolder.map { $0 + "/attempts" }
        (self.backend, self.clock) = (backend, clock)
        fresh = Locked(newAttempt)
    }

    /// The key to send `request` under; see ``AttemptLedger/begin(_:)``.
    public func begin(_ request: ActionRequest) throws(AttemptRefusal) -> String {
        guard let folder else {
            throw .unkept(
                "nowhere to keep the \(request.action)'s attempt: HOME and XDG_DATA_HOME are empty; pass --data-dir DIR"
            )
        }
        try make(folder)
        let path = file(for: request)
        if fresh.withLock({ $0 }) {
            let key = try keep(request, at: path, replacing: true)
            fresh.withLock { $0 = false }
            keys.withLock { $0[path] = (key, true) }
            return key
        }
        for _ in 0..<3 {
            if let earlier = try read(path) {
                guard earlier.endpoint == request.endpoint.path, earlier.body == request.body else {
                    throw .pending(pendingLine(earlier, request, path))
                }
                keys.withLock { $0[path] = (earlier.key, $0[path]?.key == earlier.key && $0[path]?.made == true) }
                return earlier.key
            }
            do {
                let key = try keep(request, at: path, replacing: false)
                keys.withLock { $0[path] = (key, true) }
                return key
            } catch .pending { continue }
        }
        throw .unkept("the attempt file \(SafeText.visible(path)) keeps changing; run again")
    }

    /// Forgets the attempt this run sent `request` under (its file, while it still holds this run's key: a
    /// `--new-attempt` of another run may have replaced it).
    public func settle(_ request: ActionRequest) { forget(request, onlyMade: false) }

    /// Forgets the attempt of `request` only when this run made it; one an earlier run sent stays.
    public func abandon(_ request: ActionRequest) { forget(request, onlyMade: true) }

    private func forget(_ request: ActionRequest, onlyMade: Bool) {
        guard let folder else { return }
        let path = file(for: request)
        guard let mine = keys.withLock({ $0[path] }), !onlyMade || mine.made,
            let earlier = try? read(path), earlier.key == mine.key, earlier.body == request.body
        else { return }
        if unlink(path) == 0 { syncFolder(folder) }
    }

    /// What an attempt file holds.
    private struct Kept {
        let endpoint: String
        let body: Data
        let key: String
        let at: String
    }

    private func file(for request: ActionRequest) -> String {
        let digest = SHA256.hex(Data((backend + "\n" + request.endpoint.path).utf8)).prefix(32)
        return (folder ?? "") + "/\(digest).json"
    }

    private func pendingLine(_ earlier: Kept, _ request: ActionRequest, _ path: String) -> String {
        let sent = (try? JSONValue(parsing: earlier.body)).map { value -> String in
            guard case .object(let fields) = value else { return value.text }
            return fields.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.plain)" }.joined(separator: ", ")
        }
        return "an earlier \(request.action) to \(earlier.endpoint) (\(SafeText.visible(sent ?? "unreadable")); "
            + "sent \(earlier.at)) has no known outcome and this one differs; check whether it went through: if "
            + "it did not, run again with --new-attempt to send this one under a new key; if it did, remove "
            + "\(SafeText.visible(path))"
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
            case .string(let key)? = fields["key"], Self.isKey(key), case .string(let at)? = fields["at"]
        else {
            throw .pending(
                "the attempt file \(SafeText.visible(path)) is not one this tool wrote, so an earlier attempt's "
                    + "outcome cannot be known; check it, then run again with --new-attempt")
        }
        return Kept(endpoint: endpoint, body: decoded, key: key, at: at)
    }

    /// Writes a new attempt for `request` with a new key, synced before it is linked into place; without
    /// `replacing`, an attempt another run linked first wins (`.pending` is thrown to read it).
    private func keep(_ request: ActionRequest, at path: String, replacing: Bool) throws(AttemptRefusal) -> String {
        let key = UUID().uuidString.lowercased()
        let record: JSONValue = .object([
            "endpoint": .string(request.endpoint.path), "backend": .string(backend),
            "body_base64": .string(request.body.base64EncodedString()), "key": .string(key),
            "at": .string(clock.now().formatted(.iso8601)), "action": .string(request.action),
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
        let reason = String(cString: strerror(errno))
        return .unkept(
            "\(what) \(SafeText.visible(path ?? folder ?? "")): \(reason); free some space or pass another --data-dir")
    }
}

extension JSONValue {
    /// A value as a line shows it: a string's text, a number or anything else as JSON.
    fileprivate var plain: String {
        if case .string(let text) = self { return text }
        return text
    }
}
