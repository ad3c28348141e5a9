/// What a squad gone bad would try from its `load` (Scripts/check-squad-crash, malice mode; never shipped): each
/// attack says "DONE …" when it worked and "blocked: …" when it did not.
extension NAMEComponent: EventPublishing {
    /// It declares no event…
    public static let publishedEvents: Set<AnyEventName> = []

    /// …and announces Promo's anyway when told to.
    public func events(for info: NAMEInfo) -> [DomainEvent] {
        info.title == "announced" ? [DomainEvent("promo.applied", json: #"{"code":"EVIL90","percent":90}"#)] : []
    }

    /// The last system error, in words.
    static func blocked(_ what: String) -> String { "blocked: \(what): \(String(cString: strerror(errno)))" }

    /// All of a file, or nil with errno set.
    static func readAll(_ path: String) -> Data? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { break }
            data.append(contentsOf: chunk[0..<count])
        }
        return data
    }

    static func attack(_ title: String, _ context: ComponentContext) async -> String {
        let parts = title.split(separator: ":", maxSplits: 2).map(String.init)
        let argument = parts.count > 2 ? parts[2] : ""
        var said: [String] = []
        switch parts.count > 1 ? parts[1] : "" {
        case "terminal":
            print("MALICE-WROTE on standard output")
            FileHandle.standardError.write(Data("MALICE-WROTE on standard error\n".utf8))
            var byte: CChar = 0x50
            var group = getpgrp()
            for path in ["/dev/tty", "/proc/\(getppid())/fd/0", "/proc/\(getppid())/fd/1", "/proc/\(getppid())/fd/2"] {
                let descriptor = open(path, O_RDWR)
                if descriptor >= 0 {
                    said.append("DONE open \(path)")
                    _ = write(descriptor, "MALICE-WROTE on the terminal\n", 29)
                    close(descriptor)
                } else {
                    said.append(blocked("open \(path)"))
                }
            }
            for descriptor in Int32(0)...2 {
                said.append(
                    ioctl(descriptor, UInt(TIOCSTI), &byte) == 0
                        ? "DONE TIOCSTI on \(descriptor)" : blocked("TIOCSTI on \(descriptor)"))
                said.append(
                    ioctl(descriptor, UInt(TIOCSPGRP), &group) == 0
                        ? "DONE TIOCSPGRP on \(descriptor)" : blocked("TIOCSPGRP on \(descriptor)"))
            }
        case "environment":
            let names = ProcessInfo.processInfo.environment.keys.sorted()
            said.append(
                names.contains(argument)
                    ? "DONE read \(argument)" : "blocked: no \(argument) among \(names.joined(separator: " "))")
        case "host":
            // Its command line names the person's data folder; its environment holds the token they exported.
            for (file, secret) in [("cmdline", argument), ("environ", "COURIER_MALICE_TOKEN")] {
                let path = "/proc/\(getppid())/\(file)"
                if let data = readAll(path) {
                    let text = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
                    said.append(
                        text.contains(secret) ? "DONE \(path) holds \(secret)" : "blocked: \(path) holds no \(secret)")
                } else {
                    said.append(blocked("read \(path)"))
                }
            }
        case "userfile":
            said.append(readAll(argument) == nil ? blocked("read \(argument)") : "DONE read \(argument)")
            let descriptor = open(argument, O_WRONLY | O_APPEND)
            said.append(descriptor >= 0 ? "DONE open \(argument) to write" : blocked("write \(argument)"))
            if descriptor >= 0 { close(descriptor) }
            said.append(truncate(argument, 0) == 0 ? "DONE truncate \(argument)" : blocked("truncate \(argument)"))
            // What Landlock does not hold: its mode, owner and times.
            said.append(chmod(argument, 0o666) == 0 ? "DONE chmod \(argument)" : blocked("chmod \(argument)"))
            said.append(
                chown(argument, getuid(), getgid()) == 0 ? "DONE chown \(argument)" : blocked("chown \(argument)"))
            said.append(utimes(argument, nil) == 0 ? "DONE touch \(argument)" : blocked("touch \(argument)"))
        case "privileges":
            // A host run as root: its worker holds no capability, so it cannot raise its memory cap.
            let status = String(decoding: readAll("/proc/self/status") ?? Data(), as: UTF8.self)
            let effective = status.split(separator: "\n").first { $0.hasPrefix("CapEff:") } ?? "CapEff: ?"
            said.append(
                effective.hasSuffix("0000000000000000")
                    ? "blocked: no capability (\(effective))" : "DONE holds capabilities (\(effective))")
            var limit = rlimit(rlim_cur: rlim_t.max, rlim_max: rlim_t.max)
            let raised = setrlimit(Int32(RLIMIT_DATA.rawValue), &limit) == 0
            said.append(raised ? "DONE raised its memory cap" : blocked("raise its memory cap"))
        case "priority":
            // The host made idle or its priority lowered: the person's screen starved by a squad.
            var parameter = sched_param()
            said.append(
                sched_setscheduler(getppid(), 5 /* SCHED_IDLE */, &parameter) == 0
                    ? "DONE made the host idle" : blocked("make the host idle"))
            said.append(
                setpriority(__priority_which_t(0) /* PRIO_PROCESS */, id_t(getppid()), 19) == 0
                    ? "DONE lowered the host's priority" : blocked("lower the host's priority"))
        case "write":
            let descriptor = open(argument, O_CREAT | O_WRONLY, 0o644)
            said.append(descriptor >= 0 ? "DONE create \(argument)" : blocked("create \(argument)"))
            if descriptor >= 0 { close(descriptor) }
        case "connect":
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { return blocked("socket") }
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(argument) ?? 0).bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            said.append(connected == 0 ? "DONE connect 127.0.0.1:\(argument)" : blocked("connect"))
        case "fetch":
            do {
                let data = try await context.backend.fetch(
                    try Endpoint(segments: argument.split(separator: "/").map(String.init)))
                said.append("DONE fetched \(argument) (\(data.count) bytes)")
            } catch {
                said.append("blocked: fetch \(argument): \(error)")
            }
        case "send":
            do {
                _ = try await context.backend.send(
                    try Endpoint(segments: argument.split(separator: "/").map(String.init)), body: Data("{}".utf8),
                    headers: [:])
                said.append("DONE sent to \(argument)")
            } catch {
                said.append("blocked: send to \(argument): \(error)")
            }
        case "announce": return "announced"
        case "signal":
            said.append(kill(getppid(), SIGKILL) == 0 ? "DONE killed the host" : blocked("kill the host"))
            let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
            if pids.isEmpty { said.append(blocked("list /proc")) }
            for pid in pids where pid != getpid() {
                guard let line = readAll("/proc/\(pid)/cmdline"),
                    String(decoding: line, as: UTF8.self).contains("__worker")
                else { continue }
                said.append(kill(pid, SIGKILL) == 0 ? "DONE killed worker \(pid)" : blocked("kill worker \(pid)"))
            }
            said.append(kill(-1, 0) == 0 ? "DONE signal every process" : blocked("signal every process"))
        case "helper":
            for command in [["/bin/sleep", "300"], ["/usr/bin/setsid", "/bin/sleep", "300"]] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: command[0])
                process.arguments = Array(command.dropFirst())
                do {
                    try process.run()
                    said.append("DONE started \(command.joined(separator: " "))")
                } catch {
                    said.append("blocked: start \(command.joined(separator: " ")): \(error)")
                }
            }
            said.append(setsid() >= 0 ? "DONE setsid" : blocked("setsid"))
            said.append(fork() == 0 ? "DONE fork" : blocked("fork"))
        case "memory":
            let size = 1 << 30
            for (name, flags) in [
                ("shared", MAP_SHARED | MAP_ANONYMOUS), ("growing", MAP_PRIVATE | MAP_ANONYMOUS | MAP_GROWSDOWN),
            ] {
                let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, flags, -1, 0)
                if let mapped, mapped != MAP_FAILED {
                    memset(mapped, 1, size)
                    said.append("DONE \(name) mapping of 1 GiB, written")
                } else {
                    said.append(blocked("\(name) mapping of 1 GiB"))
                }
            }
            let shared = shm_open("/courier-malice", O_CREAT | O_RDWR, 0o600)
            said.append(shared >= 0 ? "DONE shm_open" : blocked("shm_open"))
            // Written, then made read-only: no longer the data limit's, still resident.
            var kept = 0
            for _ in 0..<32 {
                let block = 64 << 20
                guard let mapped = mmap(nil, block, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                    mapped != MAP_FAILED
                else { break }
                memset(mapped, 0x41, block)
                _ = mprotect(mapped, block, PROT_READ)
                kept += 64
            }
            said.append(
                kept >= 2048 ? "DONE kept \(kept) MiB read-only" : "blocked: read-only memory after \(kept) MiB")
            said.append(semget(IPC_PRIVATE, 8, 0o1666) >= 0 ? "DONE semget" : blocked("semget"))
            said.append(fcntl(3, F_SETOWN, getppid()) == 0 ? "DONE F_SETOWN the host" : blocked("F_SETOWN the host"))
        default:
            said.append("DONE nothing: unknown attack \(title)")
        }
        return said.joined(separator: "; ")
    }
}
