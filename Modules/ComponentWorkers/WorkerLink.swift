import Core
import Foundation
import HostIO
import SafeText

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// How a worker's life ended, as its supervisor counts it.
enum WorkerEnd: Sendable, Equatable {
    /// It ended by itself or was ended for its code (a trap, a signal, a call that would not stop): its squad's crash.
    case crashed
    /// The host was done with it (the run is over): no crash.
    case closed
    /// It greeted with another build (the executable was rebuilt while the host ran): refused, no crash.
    case otherBuild
}

/// One worker process of one module, as the host sees it: its calls under way, each waiting for its reply or its
/// fetches, and how it ended. A worker that ends (any signal, any exit) ends exactly the calls it was running, each
/// with the reason (for a trap, the message Swift printed on the worker's standard error).
final class WorkerLink: Sendable {
    /// What a waiting call hears.
    enum Incoming: Sendable {
        case reply(WorkerReply)
        case fetch(id: Int, segments: [String])
        case ended(Failure)
    }

    /// Why the host lets a worker go.
    private enum Release {
        /// The run is over (``stop()``).
        case closed
        /// It greeted with another build.
        case otherBuild
    }

    private struct State {
        var calls: [Int: AsyncStream<Incoming>.Continuation] = [:]
        var nextCall = 0
        /// Cards this worker has been told about.
        var told: Set<Int> = []
        /// Calls asked to stop and not yet answered: a worker that does not answer in time is ended.
        var stopping: Set<Int> = []
        var ended: Failure?
        /// Why the host ended it (a call that would not stop), said instead of the signal.
        var endedBecause: String?
        /// Why the host let it go, when it did: its end is then no crash.
        var released: Release?
        /// The tail of its standard error.
        var errors = Data()
        /// The socket to it is closed (on the writer's queue, after every frame queued before): nothing more is
        /// written, and its descriptor may be another's.
        var inputClosed = false
        /// Its errors' socket is closed (its reader is done).
        var errorsClosed = false
        /// It has exited and is about to be reaped: its process id may soon be another's, so no signal is sent.
        var exited = false
        /// Asked to stop by the host (``stop()``): what ends it a grace later unless it has ended.
        var stopTimer: ScheduledTimer?
    }

    /// The module whose code it runs.
    let module: String
    /// Which start of the module's worker this is: an info token from an earlier one names nothing here.
    let incarnation: Int
    /// The process id, for traces.
    let pid: Int32
    private let process: ChildProcess
    /// The protocol's socket, both ways.
    private let input: Int32
    /// The socket its standard output and error come on.
    private let errors: Int32
    /// The fetches its module's registrations declare.
    private let reach: DeclaredReach
    /// Hears each fetch refused, for the trace.
    private let refused: @Sendable (String) -> Void
    /// The build the host expects it to greet with (``BuildIdentity``).
    private let build: String
    /// What its calls hear when it greets with another build.
    private let rebuilt: String
    private let clock: any CourierClock
    private let state = Locked(State())
    /// Bytes of frames queued for it and not yet written (its own lock: frames are queued under the state's).
    private let backlog = Locked(0)
    private let writer: DispatchQueue
    private let errorsRead = DispatchSemaphore(value: 0)
    private let over = DispatchSemaphore(value: 0)
    /// How long a call asked to stop may take to answer, and a worker asked to stop (its pipe closed, SIGTERM) may
    /// take to end, before the worker is ended (SIGKILL).
    static let grace: Duration = .seconds(1)
    /// How much of the worker's standard error is kept for a crash's message.
    static let errorTail = 16 << 10
    /// Descriptors the host keeps free beside its workers' for its own reads (a fixture, an HTTP connection, and
    /// Dispatch's reading of its threads' state, which traps the process when it cannot open a file): a worker
    /// that would leave fewer is not started.
    static let reserve = 8

    /// Starts `command` as the worker of `module`; `ended` hears how it ended (crashed: not closed by the host).
    /// The worker gets a session of its own (no controlling terminal: nothing it does reaches the person's), standard
    /// input from /dev/null, its protocol socket as descriptor 3, its output and errors on a socket the host reads,
    /// and an empty working folder (made for it and removed once it is in it). Two descriptors stay here: the
    /// protocol's end and the errors' end. `reach` says which fetches it may ask for (`refused` hears the others).
    /// The first frame each way is a greeting with `build`: one of another build (`tool` rebuilt since the host
    /// started) is refused, and its calls hear so.
    static func start(
        _ command: [String], module: String, incarnation: Int, environment: [String: String],
        reach: DeclaredReach = .anything, clock: any CourierClock, build: String, tool: String,
        refused: @escaping @Sendable (String) -> Void = { _ in },
        ended: @escaping @Sendable (WorkerLink, Failure, WorkerEnd) -> Void
    ) throws(Failure) -> WorkerLink {
        guard roomFor(4) else {
            errno = EMFILE
            throw Self.cannotStart(module)
        }
        var channel: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        // Sockets both: writing to a worker that died is an error here, not SIGPIPE, and either end can be shut
        // down to wake its reader when the worker is gone although something else still holds the other end.
        guard socketpair(AF_UNIX, streamSocket, 0, &channel) == 0 else { throw Self.cannotStart(module) }
        guard socketpair(AF_UNIX, streamSocket, 0, &errors) == 0 else {
            let failure = Self.cannotStart(module)
            channel.forEach(closeDescriptor)
            throw failure
        }
        #if canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(channel[1], SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        // Close-on-exec here, the worker's own ends included: only the spawn's duplicates (3, 1, 2) reach it.
        for descriptor in channel + errors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let folder = EmptyFolder()
        let process: ChildProcess
        do {
            process = try ChildProcess.start(
                command, environment: environment, directory: folder?.path, output: errors[0], error: errors[0],
                extra: channel[0], session: true)
        } catch {
            folder?.remove()
            (channel + errors).forEach(closeDescriptor)
            throw Failure("\(module)'s worker could not start: \(error.message)")
        }
        // Removed as soon as the worker is in it, before anything else here.
        folder?.remove()
        [channel[0], errors[0]].forEach(closeDescriptor)
        let link = WorkerLink(
            module: module, incarnation: incarnation, process: process, channel: channel[1], errors: errors[1],
            reach: reach, clock: clock, refused: refused, build: build,
            rebuilt: "\(tool) was rebuilt while it ran: start it again")
        // Queued first: nothing is written to it before the greeting.
        link.send(.hello(build: build))
        let (output, errorOutput) = (channel[1], errors[1])
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(errorOutput, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                link.keep(Data(chunk[0..<count]))
            }
            link.state.withLock { state in
                state.errorsClosed = true
                closeDescriptor(errorOutput)
            }
            link.errorsRead.signal()
        }
        Thread.detachNewThread {
            if link.greeted(WorkerFrames.body(from: output)) {
                while let message = WorkerFrames.next(FromWorker.self, from: output) { link.route(message) }
            }
            let (reason, end) = link.reasonForEnd()
            // The pool hears first (a crash is counted before anyone can ask for the module again), then the calls.
            ended(link, reason, end)
            link.failCalls(reason)
            link.over.signal()
        }
        // Its death is seen at once, even while something else (a helper it started) holds its sockets: when it
        // exits, its group is ended and both readers are woken.
        Thread.detachNewThread { link.watchForExit() }
        return link
    }

    /// Whether `needed` more descriptors (two socket pairs while a worker starts) leave ``reserve`` free under
    /// this process's limit. Counted only under a limit small enough for it to matter (below 4096).
    private static func roomFor(_ needed: Int) -> Bool {
        guard let limit = CommandLineTool.descriptorLimit(), limit < 4096 else { return true }
        let open = (0..<Int32(limit)).filter { fcntl($0, F_GETFD) != -1 }.count
        return open + needed + reserve <= limit
    }

    /// Why a worker could not start, from the system's error: "too many open files" under a low `ulimit -n`.
    private static func cannotStart(_ module: String) -> Failure {
        let words = String(cString: strerror(errno))
        return Failure("\(module)'s worker could not start: \(words.prefix(1).lowercased() + words.dropFirst())")
    }

    private init(
        module: String, incarnation: Int, process: ChildProcess, channel: Int32, errors: Int32, reach: DeclaredReach,
        clock: any CourierClock, refused: @escaping @Sendable (String) -> Void, build: String, rebuilt: String
    ) {
        (self.module, self.incarnation, self.process, self.input, self.errors, self.clock) =
            (module, incarnation, process, channel, errors, clock)
        (self.reach, self.refused, self.build, self.rebuilt) = (reach, refused, build, rebuilt)
        pid = process.id
        writer = DispatchQueue(label: "courier.worker.\(module).\(incarnation)")
    }

    /// Waits (on a thread of its own) for the worker to exit without reaping it, then ends what it may have left in
    /// its group and wakes the readers of its sockets, which its helpers might otherwise hold open.
    private func watchForExit() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        state.withLock { state in
            // Not reaped yet (the reader marks it before reaping it), so its group's id is still its own.
            if !state.exited { signalGroup(pid, SIGKILL) }
            if !state.inputClosed { _ = shutdown(input, Int32(SHUT_RDWR)) }
            if !state.errorsClosed { _ = shutdown(errors, Int32(SHUT_RDWR)) }
        }
    }

    /// Whether it has ended.
    var hasEnded: Bool { state.withLock { $0.ended != nil } }

    /// Runs `op` for card `slot` and waits for its reply, doing the fetches it asks for on `backend` in the caller's
    /// task. `limit`: a call not answered by then is stopped (and its worker ended if it does not stop).
    func call(
        slot: Int, spec: SlotSpec?, now: Date, _ op: WorkerOp, backend: any Backend, limit: Duration?
    ) async -> Result<WorkerReply, Failure> {
        let (stream, continuation) = AsyncStream<Incoming>.makeStream()
        let opened = state.withLock { state -> Result<Int, Failure> in
            if let ended = state.ended { return .failure(ended) }
            state.nextCall += 1
            state.calls[state.nextCall] = continuation
            // Queued under the lock: the call that tells the worker about the card is written before any other.
            let first = state.told.insert(slot).inserted
            guard send(.call(id: state.nextCall, slot: slot, spec: first ? spec : nil, now: now, op: op)) else {
                state.calls[state.nextCall] = nil
                if first { state.told.remove(slot) }
                return .failure(Failure("\(module)'s card is larger than a worker may be sent (its payload or events)"))
            }
            return .success(state.nextCall)
        }
        let id: Int
        switch opened {
        case .success(let opened): id = opened
        case .failure(let ended): return .failure(ended)
        }
        let timer = limit.map { limit in
            clock.schedule(after: limit) { [self] in
                stop(
                    id,
                    saying: Failure("\(module)'s code gave no answer within \(String(format: "%g", limit.seconds))s"))
            }
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            // Fetches run beside the wait, as children of this call: a worker that dies mid-fetch ends the call at
            // once, and its fetches with it.
            await withTaskGroup(of: Void.self) { fetches in
                defer { fetches.cancelAll() }
                for await incoming in stream {
                    switch incoming {
                    case .reply(let reply): return .success(reply)
                    case .ended(let failure): return .failure(failure)
                    case .fetch(let fetch, let segments) where !reach.allows(segments):
                        // Outside what its module declares: refused, and the call fails with it, so the card says so
                        // whatever the squad's code does with the error.
                        let path = segments.joined(separator: "/")
                        let refusal = "\(module)'s code fetched \(path), which \(module) does not declare; refused"
                        refused(refusal)
                        send(.fetched(id: fetch, .fault(.transport("refused: not declared by \(module)", path: path))))
                        stop(id, saying: nil)
                        return .failure(Failure(refusal))
                    case .fetch(let fetch, let segments):
                        fetches.addTask { [self] in
                            let result: FetchResult
                            do throws(BackendError) {
                                result = .data(try await backend.fetch(try Endpoint(segments: segments)))
                            } catch { result = .fault(error) }
                            // An answer too large to cross is the fetch's fault, said to the code that asked.
                            if !send(.fetched(id: fetch, result)) {
                                let path = segments.joined(separator: "/")
                                let most = "\(WorkerFrames.limit >> 20) MiB"
                                let fault = "answer larger than a worker may be sent (\(most) as JSON)"
                                send(.fetched(id: fetch, .fault(.transport(fault, path: path))))
                            }
                        }
                    }
                }
                return .failure(Failure("cancelled"))
            }
        } onCancel: {
            stop(id, saying: nil)
        }
    }

    /// Call `id` is no longer wanted: its waiter hears `failure` (or the cancellation), the worker is asked to stop
    /// it, and ended if it has not answered within ``grace``.
    private func stop(_ id: Int, saying failure: Failure?) {
        let waiting = state.withLock { state -> AsyncStream<Incoming>.Continuation? in
            guard let waiting = state.calls.removeValue(forKey: id) else { return nil }
            if state.ended == nil { state.stopping.insert(id) }
            return waiting
        }
        guard let waiting else { return }
        if let failure { waiting.yield(.ended(failure)) }
        waiting.finish()
        send(.cancel(id: id))
        _ = clock.schedule(after: Self.grace) { [self] in
            let late = state.withLock { $0.stopping.contains(id) }
            if late {
                end(because: "code did not stop within \(String(format: "%g", Self.grace.seconds))s of being asked")
            }
        }
    }

    /// Ends the worker now (SIGKILL); `reason` is what its calls hear.
    func end(because reason: String?) {
        state.withLock { state in
            if state.endedBecause == nil, let reason { state.endedBecause = reason }
        }
        kill()
    }

    /// SIGKILL to its whole group (whatever it started), unless it has been reaped.
    private func kill() { signal(SIGKILL) }

    /// Sends `number` to the worker's whole group unless it has been reaped (its group's id may then be another's):
    /// SIGSTOP and SIGCONT when the host is stopped and continued (Ctrl-Z, `fg`), SIGKILL to end it.
    func signal(_ number: Int32) {
        state.withLock { state in
            if !state.exited { signalGroup(pid, number) }
        }
    }

    /// The host is done with it (its end is no crash): asked to stop politely, first by closing its pipe (a worker
    /// ends by itself when it reads the end), then by SIGTERM to its group, and ended (SIGKILL) ``grace`` later on
    /// the run's clock if it is still there. Returns at once: ``waitForEnd()`` waits, so a pool stops every worker
    /// together.
    func stop() {
        let started = state.withLock { state -> Bool in
            guard state.released == nil else { return false }
            state.released = .closed
            if !state.inputClosed { _ = shutdown(input, Int32(SHUT_WR)) }
            if !state.exited { signalGroup(pid, SIGTERM) }
            return true
        }
        guard started else { return }
        let timer = clock.schedule(after: Self.grace) { [self] in kill() }
        state.withLock { $0.stopTimer = timer }
    }

    /// Until the worker has ended and been reaped (after ``stop()``: at most ``grace`` on the run's clock, and the
    /// moment its reader takes to see it).
    func waitForEnd() {
        over.wait()
        over.signal()
        state.withLock { $0.stopTimer }?.cancel()
    }

    /// Queues `message`; false when it does not make a frame (too large), so nothing was sent.
    @discardableResult
    private func send(_ message: ToWorker) -> Bool {
        guard let frame = WorkerFrames.frame(message) else { return false }
        // A worker that does not read what it asked for is ended once two frames' worth wait for it, rather than
        // let the host's memory grow with its backlog.
        let backlogged = backlog.withLock { bytes in
            bytes += frame.count
            return bytes > 2 * WorkerFrames.limit
        }
        guard !backlogged else {
            kill()
            return true
        }
        writer.async { [self] in
            defer { backlog.withLock { $0 -= frame.count } }
            guard !state.withLock({ $0.inputClosed }) else { return }
            // A worker that is gone, or closed its channel, fails the write: its reader is woken to see the end and
            // say why (a trap's message, or the channel closed). Never SIGKILL here: the greeting is written at once,
            // and a kill racing a worker that closed its channel was said as a kill from outside the run.
            if !WorkerFrames.write(frame, to: input, socket: true) { _ = shutdown(input, Int32(SHUT_RDWR)) }
        }
        return true
    }

    private func keep(_ data: Data) {
        state.withLock { state in
            state.errors.append(data)
            // A copy of the tail, not a slice of it: a slice keeps the whole buffer (the host grew by everything a
            // worker printed).
            if state.errors.count > Self.errorTail * 2 {
                state.errors = state.errors.withUnsafeBytes { Data($0.suffix(Self.errorTail)) }
            }
        }
    }

    private func route(_ message: FromWorker) {
        switch message {
        case .hello: break  // Greeted once, first (``greeted(_:)``); another greeting says nothing new.
        case .reply(let id, let reply):
            let waiting = state.withLock { state in
                state.stopping.remove(id)
                return state.calls.removeValue(forKey: id)
            }
            waiting?.yield(.reply(reply))
            waiting?.finish()
        case .fetch(let fetch, let call, let segments):
            let waiting = state.withLock { $0.calls[call] }
            if let waiting {
                waiting.yield(.fetch(id: fetch, segments: segments))
            } else {
                // Its call is over (cancelled as the fetch crossed): answered, without echoing what it asked for.
                send(.fetched(id: fetch, .fault(.transport("cancelled", path: ""))))
            }
        }
    }

    /// Whether its first frame (`first`: nil at the end of its output) greets with the host's build. One that says
    /// another build, or is no greeting, is a worker of another build: it is ended, and that is no crash.
    private func greeted(_ first: Data?) -> Bool {
        guard let first else { return false }
        if case .hello(let theirs)? = try? JSONDecoder().decode(FromWorker.self, from: first), theirs == build {
            return true
        }
        state.withLock { state in
            if state.released == nil { state.released = .otherBuild }
        }
        kill()
        return false
    }

    /// After its output ended: waits for the process and says why it ended, and how (a crash, or let go by the
    /// host).
    private func reasonForEnd() -> (Failure, WorkerEnd) {
        // A worker whose channel ended is given a moment to exit by itself (a trap closes its descriptors before it
        // is gone), so its own status is said; one still running then is ended, and that is the reason, not a
        // SIGKILL from outside. A worker the host released (closed, refused) was ended by the host and is not
        // waited for (a run's end would otherwise take that moment per worker).
        var running = state.withLock { $0.released == nil }
        for _ in 0..<200 where running {
            var info = siginfo_t()
            running = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == 0
            if running { usleep(1_000) }
        }
        if running {
            state.withLock { state in
                if state.endedBecause == nil { state.endedBecause = "code closed its channel to the host" }
            }
        }
        kill()
        _ = errorsRead.wait(timeout: .now() + 2)
        // Waited for without reaping, then marked, then reaped: a signal can never reach a process that took its id.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        // Whatever it started ends with it: its group, before its id is given back.
        state.withLock { state in
            signalGroup(pid, SIGKILL)
            state.exited = true
        }
        let status = process.wait()
        return state.withLock { state in
            switch state.released {
            case .otherBuild: return (Failure(rebuilt), .otherBuild)
            case .closed:
                let because = state.endedBecause ?? "run is over"
                return (
                    Failure(Self.reason(module, status: status, errors: state.errors, endedBecause: because)), .closed
                )
            case nil:
                let reason = Self.reason(module, status: status, errors: state.errors, endedBecause: state.endedBecause)
                return (Failure(reason), .crashed)
            }
        }
    }

    /// Fails every call still waiting with `reason`; later calls fail with it at once.
    private func failCalls(_ reason: Failure) {
        let calls = state.withLock { state in
            state.ended = reason
            state.stopping = []
            defer { state.calls = [:] }
            return Array(state.calls.values)
        }
        for call in calls {
            call.yield(.ended(reason))
            call.finish()
        }
        writer.async { [self] in
            state.withLock { state in
                state.inputClosed = true
                closeDescriptor(input)
            }
        }
    }

    /// Why a worker ended, in a person's words: the trap's message when Swift printed one, else the signal or status.
    static func reason(_ module: String, status: Int32, errors: Data, endedBecause: String?) -> String {
        if let endedBecause { return "\(module)'s \(endedBecause); its worker was ended" }
        let text = String(decoding: errors, as: UTF8.self)
        let marks = ["Fatal error:", "Precondition failed:", "Assertion failed:"]
        for line in text.split(whereSeparator: \.isNewline).reversed() {
            guard let mark = marks.compactMap({ line.range(of: $0) }).first else { continue }
            let message = SafeText.visible(String(line[mark.lowerBound...]).trimmingCharacters(in: .whitespaces))
            return "\(module)'s code stopped: " + (message.count > 200 ? String(message.prefix(200)) + "…" : message)
        }
        guard status > 128 else { return "\(module)'s worker exited with status \(status)" }
        // Nothing in the run sends it SIGKILL without saying why (above), and no worker can signal another: it was
        // ended from outside (a person, the system short of memory), which is not its squad's code.
        if status == 128 + SIGKILL { return "\(module)'s worker was killed from outside the run (signal 9)" }
        let names: [Int32: String] = [
            SIGILL: "illegal instruction (a trap)", SIGTRAP: "trap", SIGABRT: "aborted", SIGBUS: "bus error",
            SIGFPE: "arithmetic fault", SIGKILL: "killed",
            SIGSEGV: "segmentation fault (a stack overflow or a bad pointer)",
        ]
        let signal = status - 128
        return "\(module)'s code stopped: signal \(signal), \(names[signal] ?? "signal")"
    }
}

/// The system's close, which the link's own `close()` hides inside it.
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

/// The system's kill, to the group `leader` leads (the link's own `kill()` hides it inside it).
private func signalGroup(_ leader: pid_t, _ number: Int32) { _ = kill(-leader, number) }

/// A folder made empty for a worker to start in, removed once it is there: the worker's working folder is then
/// a folder no one can add to.
private struct EmptyFolder {
    let path: String

    init?() {
        var template = Array((NSTemporaryDirectory() + "/courier-worker-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        path = String(cString: made)
    }

    func remove() { _ = rmdir(path) }
}

#if canImport(Darwin)
    private let streamSocket = SOCK_STREAM
#else
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#endif
