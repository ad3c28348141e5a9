import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

// Where a process may start others (not iOS, tvOS, watchOS or visionOS, which declare no posix_spawn).
#if os(Linux) || os(macOS)

    /// A child process started with `posix_spawnp`, for the tools that run git, swift, bash or the CLIs under test.
    /// Not Foundation's `Process`: on Linux its `run()` copies 256 bytes of every `/proc/self/fd` entry and now and
    /// then reads past the end of a mapped page and crashes the parent (swift-corelibs-foundation#5472).
    public struct ChildProcess: Sendable {
        /// The child's process id.
        public let id: pid_t

        /// Starts `command` (its first element looked up on PATH) in `directory` with `environment` (nil: this
        /// process's), its standard input, output and error being the given descriptors (which stay open here;
        /// nil: /dev/null), and `extra`, when given, as its descriptor 3.
        /// The child gets its own process group (with `session`, a session of its own: no controlling terminal, so
        /// nothing it does reaches this process's terminal), default signal handling and no blocked signals, and
        /// inherits no other descriptor.
        public static func start(
            _ command: [String], environment: [String: String]? = nil, directory: String? = nil,
            input: Int32? = nil, output: Int32? = nil, error: Int32? = nil, extra: Int32? = nil, session: Bool = false
        ) throws(ChildProcessError) -> ChildProcess {
            guard let name = command.first else { throw ChildProcessError(message: "no command to run") }
            #if canImport(Darwin)
                var actions: posix_spawn_file_actions_t? = nil
                var attributes: posix_spawnattr_t? = nil
            #else
                var actions = posix_spawn_file_actions_t()
                var attributes = posix_spawnattr_t()
            #endif
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for (from, to) in [(input, Int32(0)), (output, 1), (error, 2)] {
                if let from {
                    posix_spawn_file_actions_adddup2(&actions, from, to)
                } else {
                    posix_spawn_file_actions_addopen(&actions, to, "/dev/null", to == 0 ? O_RDONLY : O_WRONLY, 0)
                }
            }
            if let extra { posix_spawn_file_actions_adddup2(&actions, extra, 3) }
            if let directory, Spawning.addChangeDirectory(&actions, directory) != 0 {
                throw ChildProcessError(message: "cannot run \(name) in \(directory): the system cannot change folder")
            }
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // A new session is also a new group (the child leads both); asking for a group too would fail the start.
            var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
            flags |= session ? Spawning.setSession : Int32(POSIX_SPAWN_SETPGROUP)
            #if canImport(Darwin)
                flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
            #else
                Spawning.closeFrom(&actions, extra == nil ? 3 : 4)
            #endif
            posix_spawnattr_setflags(&attributes, Int16(flags))
            posix_spawnattr_setpgroup(&attributes, 0)
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD] {
                sigaddset(&defaults, signal)
            }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
            var id: pid_t = 0
            let failure = Spawning.withCStrings(command) { arguments in
                Spawning.withCStrings(variables) { variables in
                    posix_spawnp(&id, name, &actions, &attributes, arguments, variables)
                }
            }
            guard failure == 0 else {
                // The folder is changed into before the command is looked up, and either failing says only ENOENT.
                var folder = stat()
                if let directory, stat(directory, &folder) != 0 || folder.st_mode & S_IFMT != S_IFDIR {
                    throw ChildProcessError(message: "cannot run \(name) in \(directory): it is not a folder")
                }
                throw ChildProcessError(message: "cannot run \(name): \(String(cString: strerror(failure)))")
            }
            return ChildProcess(id: id)
        }

        /// Waits for the child to end: its exit status, or 128 + the signal that ended it.
        public func wait() -> Int32 {
            var status: Int32 = 0
            while waitpid(id, &status, 0) < 0 {
                guard errno == EINTR else { return 128 + SIGKILL }
            }
            return ChildProcess.exitStatus(status)
        }

        /// The child's exit status (as `wait()` gives it) if it has ended, else nil; never waits. After a non-nil
        /// answer the child is gone, and `wait()` must not be called.
        public func endedStatus() -> Int32? {
            var status: Int32 = 0
            let result = waitpid(id, &status, WNOHANG)
            if result == 0 { return nil }
            return result == id ? ChildProcess.exitStatus(status) : 128 + SIGKILL
        }

        /// Sends `signal` to the child.
        public func send(_ signal: Int32) {
            _ = kill(id, signal)
        }

        /// An exit status the way a shell reports it.
        private static func exitStatus(_ status: Int32) -> Int32 {
            let signal = status & 0x7F
            return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        }
    }

    /// Why a child could not be started, in words a person can act on.
    public struct ChildProcessError: Error, CustomStringConvertible, Equatable, Sendable {
        /// The message, naming the command.
        public let message: String
        /// An error that says what could not be run and why.
        public init(message: String) { self.message = message }
        /// The message.
        public var description: String { message }
    }

    /// What `posix_spawnp` needs that Swift's C modules do not all declare.
    private enum Spawning {
        /// `POSIX_SPAWN_SETSID` (glibc 2.26, macOS 10.15), which not every C module of Swift's declares.
        #if canImport(Darwin)
            static let setSession: Int32 = 0x0400
        #else
            static let setSession: Int32 = 0x80
        #endif

        /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29, macOS 10.15): Glibc's module leaves it out, so it is
        /// looked up by name.
        #if canImport(Darwin)
            static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t?, _ directory: String) -> Int32 {
                posix_spawn_file_actions_addchdir_np(&actions, directory)
            }
        #else
            static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ directory: String) -> Int32 {
                typealias AddChangeDirectory =
                    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
                guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return ENOSYS }
                return unsafeBitCast(symbol, to: AddChangeDirectory.self)(&actions, directory)
            }
        #endif

        #if !canImport(Darwin)
            /// Closes every descriptor from `lowest` up in the child (glibc 2.34's `addclosefrom_np`, looked up by
            /// name; before it, the first thousand one by one).
            static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) {
                typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
                if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
                    _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest)
                    return
                }
                for descriptor in lowest..<1024 where fcntl(descriptor, F_GETFD) >= 0 {
                    posix_spawn_file_actions_addclose(&actions, descriptor)
                }
            }
        #endif

        /// Calls `body` with `strings` as a NULL-terminated array of C strings.
        static func withCStrings<Result>(
            _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
        ) -> Result {
            let pointers = strings.map { strdup($0) } + [nil]
            defer { for pointer in pointers { free(pointer) } }
            return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
        }
    }
#endif
