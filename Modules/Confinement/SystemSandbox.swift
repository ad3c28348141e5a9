import ComponentWorkers
import Foundation
import HostIO
import SandboxBinding

/// This system's sandbox for workers, over SandboxBinding's calls: what the kernel offers (asked once by the host,
/// which says what is missing) and how a worker confines itself (Landlock for files, TCP and signals; seccomp for
/// everything else), reading only what the executable itself needs. An adapter: only apps import it, and hand it
/// to ComponentWorkers, which names no system binding.
public enum SystemSandbox {
    /// The sandbox of the running kernel.
    public static var current: WorkerSandbox {
        let landlock = Int(courier_sandbox_landlock_abi())
        let seccomp = courier_sandbox_seccomp_available() == 1
        return WorkerSandbox(missing: WorkerProtection.missing(landlock: landlock, seccomp: seccomp)) { confine() }
    }

    /// Confines this process (one thread) and says what it could not apply.
    static func confine() -> [WorkerProtection] {
        let paths = readable()
        // Landlock binds the calling thread and the threads it starts: with another thread already running, the
        // files are not held for that one, and that is said.
        let alone = threads() <= 1
        let bits = withCStrings(paths) { courier_sandbox_confine($0, Int32(paths.count), getpid()) }
        var applied: Set<WorkerProtection> = []
        if bits & Int32(COURIER_SANDBOX_FILES) != 0 && alone { applied.insert(.files) }
        if bits & Int32(COURIER_SANDBOX_TRUNCATE) != 0 && alone { applied.insert(.truncation) }
        if bits & Int32(COURIER_SANDBOX_SECCOMP) != 0 {
            applied.formUnion([.network, .signals, .processes, .terminal, .sharedMemory])
        }
        return WorkerProtection.allCases.filter { !applied.contains($0) }
    }

    /// What a worker may read: its executable (the file), the folders of the files it has mapped elsewhere (its
    /// libraries, and those a library loads later beside them), the time zones, the
    /// processor count and limits, and /proc, where Dispatch reads its own threads' state (`/proc/TID/stat`, and it
    /// traps when it cannot). Of another process /proc then gives no environment, descriptor, memory or link
    /// (Landlock refuses those as it refuses tracing), and the host blanks its own command line
    /// (HostIO's `HiddenArguments`). Nothing of the person's: no home, no data folder.
    static func readable() -> [String] {
        var paths = ["/usr/share/zoneinfo", "/etc/localtime", "/sys/devices/system/cpu", "/sys/fs/cgroup", "/proc"]
        // The executable itself, never its folder: beside it lie the squads' fixture trees (what the host's
        // backend answers only when declared) and, for a binary kept in a home, the person's files.
        let executable = ExecutableLocation.path()
        let own = executable.map { ($0 as NSString).deletingLastPathComponent }
        if let executable { paths.append(executable) }
        let maps = whole("/proc/self/maps")
        var mapped = Set<String>()
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            // A library's folder: a regular file's, never a device's (/dev holds the person's terminal).
            var file = stat()
            guard stat(path, &file) == 0, file.st_mode & S_IFMT == S_IFREG, !path.hasPrefix("/dev/") else { continue }
            let folder = (path as NSString).deletingLastPathComponent
            // A library beside the executable: that file alone, as the executable.
            let granted = folder == own ? path : folder
            if folder != "/", mapped.insert(granted).inserted { paths.append(granted) }
        }
        return paths
    }

    /// All of a /proc file, read to its end (it gives no size to read up to).
    static func whole(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            data += chunk[0..<count]
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// How many threads this process has (1 when it cannot tell).
    private static func threads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 1
    }

    private static func withCStrings<Result>(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
    ) -> Result {
        let pointers = strings.map { UnsafePointer(strdup($0)) } + [nil]
        defer { for pointer in pointers { free(UnsafeMutablePointer(mutating: pointer)) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
