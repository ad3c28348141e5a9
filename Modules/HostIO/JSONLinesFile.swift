import ArgumentParsing
import Core
import Foundation
import SafeText

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A file the host writes one JSON object per line to (`--record`, `--analytics`), with POSIX calls so every
/// problem is the system's own words ("No space left on device") naming the path, reported once on stderr.
/// Writing never stops the screen: a line that cannot be written is dropped after the one report.
public final class JSONLinesFile: Sendable {
    private let descriptor: Int32
    private let path: String
    private let option: String
    private let failed = Locked(false)
    /// A recording this run holds alone: a line cut short is taken back, so the file is always whole lines.
    private let alone: Bool

    /// Opens `path` for `option`, appending or starting afresh; the error says what to do next.
    public init(path: String, option: String, append: Bool) throws(UsageError) {
        guard !path.isEmpty else { throw UsageError(message: "\(option) needs a file name") }
        // Non-blocking to open: a FIFO nobody reads would otherwise hold the run before anything is drawn
        // (it fails with ENXIO instead). Blocking again afterwards, so every line is written whole.
        // Never O_TRUNC here: a file another run is writing is found (by its lock) before anything is cut.
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK | (append ? O_APPEND : 0)
        // Owner-only: recordings hold payment and feed data, analytics the cards' facts (like the stored user).
        let descriptor = open(path, flags, 0o600)
        // A folder fails here too, in the system's words ("Is a directory").
        guard descriptor >= 0 else {
            let reason = errno == ENXIO ? "it is a pipe nobody is reading" : String(cString: strerror(errno))
            throw UsageError(
                message: "\(option) '\(SafeText.visible(path))' cannot be written: \(reason); "
                    + "give a file in a writable folder")
        }
        // A recording is this run's alone (an exclusive lock, held until it ends); appenders share a file with
        // each other (each line is one O_APPEND write, which the system never interleaves) but never with a
        // recording. A file another run holds is said, never torn.
        var kind = stat()
        let regular = fstat(descriptor, &kind) == 0 && (kind.st_mode & S_IFMT) == S_IFREG
        if regular, flock(descriptor, (append ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 {
            let reason = errno == EWOULDBLOCK ? "another run is writing it" : String(cString: strerror(errno))
            close(descriptor)
            throw UsageError(
                message:
                    "\(option) '\(SafeText.visible(path))' cannot be written: \(reason); give each run its own file")
        }
        if regular, !append { _ = ftruncate(descriptor, 0) }
        // A line an earlier run could not finish (a full disk) is ended first, so this run's first line is whole.
        var last: UInt8 = 0
        if regular, append, kind.st_size > 0, pread(descriptor, &last, 1, kind.st_size - 1) == 1, last != 10 {
            _ = write(descriptor, [UInt8(10)], 1)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == getuid() {
            _ = fchmod(descriptor, 0o600)
        }
        (self.descriptor, self.path, self.option, alone) = (descriptor, path, option, regular && !append)
    }

    deinit { close(descriptor) }

    /// Refuses two of `files` (option name, path when given) naming one file: a recording, a replay and an
    /// analytics log written into each other would interleave answers and events.
    public static func refuseShared(_ files: [(option: String, path: String?)]) throws(UsageError) {
        let given = files.compactMap { file in file.path.map { (file.option, $0) } }
        for (index, first) in given.enumerated() {
            for second in given[(index + 1)...] where sameFile(first.1, second.1) {
                throw UsageError(
                    message: "\(first.0) and \(second.0) name the same file '\(SafeText.visible(second.1))'; "
                        + "give each its own file")
            }
        }
    }

    /// Whether two paths name one file (the same device and inode once both exist; the same resolved path
    /// before), so `--record` and `--analytics` can never write into each other.
    public static func sameFile(_ one: String, _ other: String) -> Bool {
        var first = stat()
        var second = stat()
        if stat(one, &first) == 0, stat(other, &second) == 0 {
            return first.st_dev == second.st_dev && first.st_ino == second.st_ino
        }
        let resolve = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        return resolve(one) == resolve(other)
    }

    /// Appends `line` and a newline in one write (so concurrent writers never interleave within a line); the
    /// first line that cannot be written is reported to `problem` (stderr, in the host), later ones dropped.
    public func append(_ line: String, problem: (String) -> Void) {
        let bytes = Array((line + "\n").utf8)
        var before = stat()
        let size = alone && fstat(descriptor, &before) == 0 ? before.st_size : -1
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written != bytes.count else { return }
        let reason = written < 0 ? String(cString: strerror(errno)) : "short write"
        if size >= 0 {
            _ = ftruncate(descriptor, size)
            _ = lseek(descriptor, size, SEEK_SET)
        }
        let first = failed.withLock { failed in
            defer { failed = true }
            return !failed
        }
        if first { problem("cannot write \(option) '\(path)': \(reason); later lines are dropped") }
    }
}
