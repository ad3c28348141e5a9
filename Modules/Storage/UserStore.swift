import Foundation
import Login

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps the signed-in user on disk as one small JSON file. Writes are atomic (temp file, fsync, rename in the
/// same directory), so a crash or SIGKILL leaves either the old record or the new one, never a torn file.
public struct UserStore: SessionReading {
    /// The folder holding `user.json`.
    public let directory: URL

    /// Uses `directory` for the record.
    public init(directory: URL) { self.directory = directory }

    /// `--data-dir`, else `$XDG_DATA_HOME/courier`, else `~/.local/share/courier`.
    public static func defaultDirectory(dataDir: String?, environment: [String: String]) -> URL {
        if let dataDir { return URL(fileURLWithPath: dataDir) }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("courier")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/courier")
    }

    /// Where the record lives.
    public var file: URL { directory.appendingPathComponent("user.json") }

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
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        do { return try JSONDecoder().decode(LoginSession.self, from: data) } catch {
            throw StoreError(message: "\(file.path) is not a valid user record; run 'order-tracking logout'")
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
