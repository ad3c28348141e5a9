import Core
import Foundation

/// What a worker's code may reach beyond itself, and which parts of that this system can hold it to: the pieces a
/// worker confines itself with, each named as a person reads it when it is missing.
public enum WorkerProtection: String, CaseIterable, Sendable {
    /// No file written, none read beyond what the executable needs (Landlock).
    case files = "files (Landlock)"
    /// No file emptied by name (Landlock from ABI 3).
    case truncation = "file truncation (Landlock ABI 3)"
    /// No socket: no connection to anything, loopback included (seccomp).
    case network = "network (seccomp)"
    /// No signal to any process but itself (seccomp, and Landlock's scope from ABI 6).
    case signals = "signals to other processes (seccomp)"
    /// No new process, session or group (seccomp).
    case processes = "new processes (seccomp)"
    /// No terminal `ioctl` (seccomp; it has no controlling terminal either way).
    case terminal = "terminal ioctl (seccomp)"
    /// No shared, memfd or stack-growing memory, which the memory cap would not count (seccomp).
    case sharedMemory = "shared memory under the cap (seccomp)"

    /// The protections missing when Landlock's ABI is `landlock` (0: none) and seccomp filters are `seccomp`.
    public static func missing(landlock: Int, seccomp: Bool) -> [WorkerProtection] {
        var missing: [WorkerProtection] = []
        if landlock < 1 { missing.append(.files) }
        if landlock < 3 { missing.append(.truncation) }
        if !seccomp {
            missing += [.network, .processes, .terminal, .sharedMemory]
            if landlock < 6 { missing.append(.signals) }
        }
        return allCases.filter(missing.contains)
    }
}

/// How a worker confines itself, and what this system cannot confine: given by the host's executable, whose
/// platform calls they are (order-tracking's, over SandboxBinding), so this library names no system binding.
public struct WorkerSandbox: Sendable {
    /// What this system cannot apply (the host says it once; `COURIER_WORKER_SANDBOX=required` refuses to run).
    public let missing: [WorkerProtection]
    /// Confines the calling process, which must have one thread, before any squad code runs: what it could not
    /// apply.
    public let confine: @Sendable () -> [WorkerProtection]

    /// A sandbox that lacks `missing` and confines with `confine`.
    public init(missing: [WorkerProtection], confine: @escaping @Sendable () -> [WorkerProtection]) {
        (self.missing, self.confine) = (missing, confine)
    }

    /// No sandbox at all (a platform without one): every protection missing.
    public static let none = WorkerSandbox(missing: WorkerProtection.allCases) { WorkerProtection.allCases }

    /// The one line the host says about `missing` (nil when nothing is).
    public static func line(_ missing: [WorkerProtection]) -> String? {
        guard !missing.isEmpty else { return nil }
        return "workers: this system cannot hold squads' code to "
            + missing.map(\.rawValue).joined(separator: ", ")
            + "; they run without it (COURIER_WORKER_SANDBOX=required refuses instead)"
    }
}

/// The endpoints a module's code may fetch through the host: its registrations' templates and its other
/// declarations' ("orders/{order}/payment.json", "promos/{code}.json"). The host answers no other fetch.
public struct DeclaredReach: Sendable, Equatable {
    /// The templates, each split into its segments; nil: anything (a host that declares nothing, tests).
    let templates: [[String]]?

    /// A reach of `templates`.
    public init(_ templates: [String]) {
        self.templates = templates.map { $0.split(separator: "/", omittingEmptySubsequences: false).map(String.init) }
    }

    private init(anything: Void) { templates = nil }

    /// Any fetch at all.
    public static let anything = DeclaredReach(anything: ())

    /// Whether a fetch of `segments` fills one of the templates: a literal segment as written, a `{name}` (with
    /// any text around it, `{code}.json`) one segment whose filled part is not empty and starts with no dot.
    public func allows(_ segments: [String]) -> Bool {
        guard let templates else { return true }
        return templates.contains { parts in
            parts.count == segments.count && zip(parts, segments).allSatisfy(Self.segment)
        }
    }

    private static func segment(_ part: String, _ segment: String) -> Bool {
        guard let open = part.firstIndex(of: "{"), let close = part[open...].firstIndex(of: "}") else {
            return part == segment
        }
        let (prefix, suffix) = (part[..<open], part[part.index(after: close)...])
        guard segment.count > prefix.count + suffix.count, segment.hasPrefix(prefix), segment.hasSuffix(suffix) else {
            return false
        }
        return !segment.dropFirst(prefix.count).hasPrefix(".")
    }
}
