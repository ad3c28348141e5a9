import Foundation
import Login

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps the signed-in user on disk as one small JSON file. Writes are atomic (temp file, fsync, rename in the
/// same directory), so a crash or SIGKILL leaves either the old record or the new one, never a torn file.
public struct UserStore: SessionReading {
    /// The folder holding `user.json`, as a path: reading the record on every screen must not pay for `URL`.
    public let path: String

    /// Uses `directory` for the record.
    public init(directory: URL) { path = directory.path }

    /// Uses the folder at `path` for the record.
    public init(path: String) { self.path = path }

    /// The folder holding `user.json`.
    public var directory: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// `--data-dir`, else `$XDG_DATA_HOME/courier`, else `~/.local/share/courier`.
    public static func defaultDirectory(dataDir: String?, environment: [String: String]) -> URL {
        URL(fileURLWithPath: defaultPath(dataDir: dataDir, environment: environment), isDirectory: true)
    }

    /// ``defaultDirectory(dataDir:environment:)`` as a path.
    public static func defaultPath(dataDir: String?, environment: [String: String]) -> String {
        if let dataDir { return dataDir }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/courier" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/courier"
    }

    /// Where the record lives.
    public var file: URL { URL(fileURLWithPath: filePath) }

    private var filePath: String { path + "/user.json" }

    /// Writes `session` atomically; returns the file's path.
    @discardableResult
    public func save(_ session: LoginSession) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        removeStaleTemporaries()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(session)
        let temporary = directory.appendingPathComponent(".user.json.\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw StoreError(message: "cannot create \(temporary.path): errno \(errno)") }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0 else {
            unlink(temporary.path)
            throw StoreError(message: "cannot write \(temporary.path): errno \(errno)")
        }
        guard rename(temporary.path, file.path) == 0 else {
            unlink(temporary.path)
            throw StoreError(message: "cannot move the record into \(file.path): errno \(errno)")
        }
        return file
    }

    /// The stored session, nil when none; a record that does not decode is an error naming the file.
    public func storedSession() throws -> LoginSession? {
        guard let data = FileManager.default.contents(atPath: filePath) else { return nil }
        do { return try JSONDecoder().decode(LoginSession.self, from: data) } catch {
            throw StoreError(message: "\(filePath) is not a valid user record; run 'order-tracking logout'")
        }
    }

    /// Removes the record; returns whether there was one.
    @discardableResult
    public func clear() throws -> Bool {
        removeStaleTemporaries()
        guard FileManager.default.fileExists(atPath: file.path) else { return false }
        try FileManager.default.removeItem(at: file)
        return true
    }

    /// Deletes temp files left by writers that were killed mid-write.
    private func removeStaleTemporaries() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(".user.json.") && name.hasSuffix(".tmp") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}

/// The store could not read or write its record.
public struct StoreError: Error, CustomStringConvertible {
    /// What failed, naming the file.
    public let message: String
    /// The message.
    public var description: String { message }
}
