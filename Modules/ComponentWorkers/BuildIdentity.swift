import Foundation
import HostIO

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Which build of the executable a process runs, as its host and its workers greet each other with (the first frame
/// each way): a worker started from an executable rebuilt while the host ran speaks another protocol, and is refused
/// in one line rather than taken for a squad's crash. The identity is the executable's file: its device, inode, size
/// and modification time to the nanosecond. A rebuild cannot keep them: Linux refuses to write an executable that
/// runs (ETXTBSY), so a linker or a copy makes a new file (a new inode), and a rewrite in place elsewhere changes
/// the time. Read with one `stat`, never by hashing the contents: a worker starts in milliseconds.
enum BuildIdentity {
    /// The identity of the executable at `path` (as it is now), or "unknown" when the system cannot say.
    static func of(file path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "unknown" }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(time.tv_sec).\(time.tv_nsec)"
    }

    /// The identity of the build this process runs: on Linux the image it was started from, even if its path now
    /// names a newer file (`/proc/self/exe` follows the file itself); elsewhere the executable's path as it is now.
    static var running: String {
        #if os(Linux)
            of(file: "/proc/self/exe")
        #else
            ExecutableLocation.path().map(of(file:)) ?? "unknown"
        #endif
    }
}
