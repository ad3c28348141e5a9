import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A record written whole or not at all (the signed-in user, a payment's attempt): its bytes go to a new file
/// beside where it belongs and are synced to disk before the caller renames or links it into place, so a crash
/// or a full disk never leaves half a record where it is read.
public enum SyncedFile {
    /// Why a synced file could not be written: the step and the system's error number, for the caller's words.
    public struct Failure: Error, Sendable, Equatable {
        /// Creating the file failed (no folder, no permission); otherwise writing or syncing it.
        public let creating: Bool
        /// The system's error number (`ENOSPC` for a short write).
        public let code: Int32
        /// The system's words for `code` ("No space left on device").
        public var reason: String { String(cString: strerror(code)) }
    }

    /// Writes `data` to a new file named after `prefix` (the writer's process id and a random part added, so a
    /// dead writer's file can be told from a live one's and two writers never share one), owner-only, synced;
    /// returns its path. Nothing is left behind when it fails.
    public static func write(_ data: Data, to prefix: String) throws(Failure) -> String {
        let temporary = prefix + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(creating: true, code: errno) }
        let written = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        let writeError = errno
        let synced = fsync(descriptor)
        let syncError = errno
        close(descriptor)
        guard written == data.count, synced == 0 else {
            unlink(temporary)
            throw Failure(
                creating: false, code: written == data.count ? syncError : (written < 0 ? writeError : ENOSPC))
        }
        return temporary
    }
}
