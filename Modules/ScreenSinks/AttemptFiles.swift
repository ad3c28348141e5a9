import Core
import Foundation
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
            return key
        }
        for _ in 0..<3 {
            if let earlier = try read(path) {
                guard earlier.endpoint == request.endpoint.path, earlier.body == request.body else {
                    throw .pending(pendingLine(earlier, request))
                }
                return earlier.key
            }
            do { return try keep(request, at: path, replacing: false) } catch .pending { continue }
        }
        throw .unkept("the attempt file \(SafeText.visible(path)) keeps changing; run again")
    }

    /// Forgets the attempt holding `request` (its file, when it still holds this request).
    public func settle(_ request: ActionRequest) {
        guard folder != nil else { return }
        let path = file(for: request)
        guard let earlier = try? read(path), earlier.body == request.body else { return }
        if unlink(path) == 0, let folder { syncFolder(folder) }
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

    private func pendingLine(_ earlier: Kept, _ request: ActionRequest) -> String {
        let sent = (try? JSONValue(parsing: earlier.body)).map { value -> String in
            guard case .object(let fields) = value else { return value.text }
            return fields.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.plain)" }.joined(separator: ", ")
        }
        return "an earlier \(request.action) to \(earlier.endpoint) (\(SafeText.visible(sent ?? "unreadable")); "
            + "sent \(earlier.at)) has no known outcome and this one differs; check whether it went through, "
            + "then run again with --new-attempt to send this one under a new key"
    }

    private func read(_ path: String) throws(AttemptRefusal) -> Kept? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if access(path, F_OK) != 0, errno == ENOENT { return nil }
            throw .unkept("the attempt file \(SafeText.visible(path)) cannot be read; check it, or --new-attempt")
        }
        guard case .object(let fields)? = try? JSONValue(parsing: data),
            case .string(let endpoint)? = fields["endpoint"],
            case .string(let body)? = fields["body_base64"], let decoded = Data(base64Encoded: body),
            case .string(let key)? = fields["key"], case .string(let at)? = fields["at"]
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
        let data = Data(record.text.utf8)
        let temporary = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw unkept("cannot create an attempt file in") }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let writeError = errno
        let synced = fsync(descriptor)
        let syncError = errno
        close(descriptor)
        guard written == data.count, synced == 0 else {
            unlink(temporary)
            errno = written == data.count ? syncError : (written < 0 ? writeError : ENOSPC)
            throw unkept("cannot write the attempt in")
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
