import Foundation
import HostIO
import Login
import Tabs

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Keeps the signed-in user on disk as one small JSON file. Writes are atomic (temp file, fsync, rename in the
/// same directory), so a crash or SIGKILL leaves either the old record or the new one, never a torn file.
public struct UserStore: SessionReading {
    /// The folder holding `user.json`, as a path: reading the record on every screen must not pay for `URL`.
    public let path: String

    /// Uses `directory` for the record.
    public init(directory: URL) { self.init(path: directory.path) }

    /// Uses the folder at `path` for the record, with "." and ".." resolved first, so `a/x/../y/../../z` makes
    /// and uses `z` and leaves no stray `a/x` or `a/y` behind.
    public init(path: String) {
        let parts = UserStore.lexicalParts(path).joined(separator: "/")
        self.path = path.hasPrefix("/") ? "/" + parts : path.isEmpty ? "" : parts.isEmpty ? "." : parts
    }

    /// The folder holding `user.json`.
    public var directory: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// `--data-dir`, else `$XDG_DATA_HOME/courier`, else `~/.local/share/courier`; nil when none of them names
    /// a folder (empty or relative), so nothing is ever written to `/` or the working directory by accident.
    public static func defaultPath(dataDir: String?, environment: [String: String]) -> String? {
        if let dataDir { return dataDir.isEmpty ? nil : dataDir }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/courier" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/share/courier" }
        return nil
    }

    /// Where the record lives.
    public var file: URL { URL(fileURLWithPath: filePath) }

    private var filePath: String { path + "/user.json" }

    /// Writes `session` atomically; returns the file's path.
    @discardableResult
    public func save(_ session: LoginSession) throws(StoreError) -> URL {
        try makeDirectory()
        removeStaleTemporaries()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(session) } catch { throw StoreError(message: "cannot encode the user record") }
        let temporary: String
        do { temporary = try SyncedFile.write(data, to: path + "/.user.json") } catch {
            errno = error.code
            throw StoreError.system(
                error.creating ? "cannot create a file in" : "cannot write the user record in", path)
        }
        guard rename(temporary, filePath) == 0 else {
            let renameError = errno
            unlink(temporary)
            errno = renameError
            throw StoreError.system("cannot move the user record into", path)
        }
        return file
    }

    /// Creates the folder and its parents, with the system's reason when that is impossible (a file in the way,
    /// no permission, a read-only disk).
    private func makeDirectory() throws(StoreError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw StoreError(message: "\(path) is a file, not a folder; pass a folder with --data-dir")
            }
            return
        }
        var current = path.hasPrefix("/") ? "" : "."
        for part in UserStore.lexicalParts(path) {
            current += "/" + part
            if mkdir(current, 0o700) != 0 && errno != EEXIST { throw StoreError.system("cannot create", current) }
            if stat(current, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
                throw StoreError(message: "\(current) is a file, not a folder; pass a folder with --data-dir")
            }
        }
    }

    /// The stored session, nil when none; a record that does not decode is an error naming the file.
    public func storedSession() throws -> LoginSession? {
        guard !path.isEmpty, let data = FileManager.default.contents(atPath: filePath) else { return nil }
        do { return try JSONDecoder().decode(LoginSession.self, from: data) } catch {
            throw StoreError(message: "\(filePath) is not a valid user record; run 'order-tracking logout'")
        }
    }

    /// Who the tab bar is for now: the stored user, or nobody (a record that cannot be read counts as nobody).
    public var tabSession: TabSession { TabSession(userID: (try? storedSession())?.userID) }

    /// Removes the record; returns whether there was one.
    @discardableResult
    public func clear() throws(StoreError) -> Bool {
        guard !path.isEmpty else { return false }
        removeStaleTemporaries()
        if unlink(filePath) == 0 { return true }
        if errno == ENOENT || errno == ENOTDIR { return false }
        throw StoreError.system("cannot remove the user record from", path)
    }

    /// The path's folders with "." dropped and ".." taken back (a ".." above the start is kept).
    static func lexicalParts(_ path: String) -> [Substring] {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts
    }

    /// Deletes temp files left by writers that were killed mid-write: only those whose process is gone, since
    /// a live writer's file (another `login` running now) is about to be renamed into place.
    private func removeStaleTemporaries() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(".user.json.") && name.hasSuffix(".tmp") {
            let fields = name.split(separator: ".")
            guard fields.count >= 4, let pid = pid_t(fields[2]), pid > 0, kill(pid, 0) != 0, errno == ESRCH else {
                continue
            }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}

/// The store could not read or write its record: one line naming the path and what to do.
public struct StoreError: Error, CustomStringConvertible {
    /// What failed, naming the file.
    public let message: String
    /// The message.
    public var description: String { message }

    /// "cannot create /x: Read-only file system; pick another --data-dir", from `errno`.
    static func system(_ what: String, _ path: String) -> StoreError {
        StoreError(message: "\(what) \(path): \(String(cString: strerror(errno))); pick another --data-dir")
    }
}
