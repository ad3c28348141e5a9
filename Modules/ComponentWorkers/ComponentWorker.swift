import Core
import Foundation
import ScreenRuntime

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The worker's side: a process that runs one module's component code for the host and nothing else. It holds no
/// backend and no files; its fetches go back to the host. Its cards' infos stay here, named by tokens, so the host
/// never needs the squad's types.
public enum ComponentWorker {
    /// The protocol's socket, both ways: the host gives it as this descriptor (standard input is /dev/null, and
    /// what the squad's code prints on standard output or error goes to the host's errors reader).
    static let channel: Int32 = 3

    /// Serves the host over its socket (``channel``) until the host closes it (or dies), running the code of
    /// `registrations`. Anything the squad's code prints goes to the host, which keeps the tail for a crash's
    /// message. `memory` (MiB) caps what the worker may allocate beyond what it holds now: a runaway allocation
    /// ends this worker only. Returns the exit status.
    public static func serve(
        _ registrations: [ComponentRegistration], errands: [WorkerErrand] = [], memory: Int?
    ) async -> Int32 {
        let (input, output) = (channel, channel)
        guard fcntl(channel, F_GETFD) >= 0 else { return 70 }
        // Close-on-exec on every descriptor it holds, its own copies included (it may start nothing anyway).
        for descriptor in Int32(0)...channel { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        if let memory { limitMemory(toMoreThanNow: memory) }
        endWithParent()
        let server = WorkerServer(registrations, errands: errands, output: output)
        // Greets first, before reading anything: a host of another build learns so even if it cannot read the rest.
        let build = BuildIdentity.running
        server.greet(build)
        let (messages, sink) = AsyncStream<ToWorker>.makeStream()
        Thread.detachNewThread {
            // The host's greeting first: a host of another build (this executable was rebuilt after it started)
            // speaks another protocol, and refuses this worker too.
            guard case .hello(build)? = WorkerFrames.next(ToWorker.self, from: input) else { _exit(0) }
            while let message = WorkerFrames.next(ToWorker.self, from: input) { sink.yield(message) }
            // The host closed its end (it is gone, or done with this worker) or sent what no frame reads: the worker
            // ends now, even while a squad's load spins on another thread.
            _exit(0)
        }
        await withDiscardingTaskGroup { group in
            for await message in messages {
                switch message {
                case .call(let id, let slot, let spec, let now, let op):
                    let trigger = server.begin(id, slot: slot, spec: spec)
                    group.addTask {
                        let reply = await cancelling(when: trigger) { await server.run(id, slot: slot, now: now, op) }
                        server.reply(id, reply)
                    }
                case .hello: break
                case .cancel(let id): server.cancel(id)
                case .fetched(let id, let result): server.fetched(id, result)
                }
            }
            // The host closed the pipe: it is gone or done with this worker.
            group.cancelAll()
        }
        return 0
    }

    /// Caps the data segment at what the process holds now plus `megabytes` plus its threads' stacks (Linux counts
    /// every private writable mapping, a thread's stack too: 8 MiB each by default, so two of them used up the
    /// smallest limit, and a worker that could not start a thread never answered); none in a sanitized build.
    private static func limitMemory(toMoreThanNow megabytes: Int) {
        #if os(Linux)
            // Descriptors: its few own, never thousands of pipes (kernel memory no cap counts).
            var descriptors = rlimit(rlim_cur: rlim_t(openFiles), rlim_max: rlim_t(openFiles))
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &descriptors)
        #endif
        // A sanitizer maps its own memory as the process runs (ThreadSanitizer's allocator, AddressSanitizer's
        // shadow): under a cap it runs out before the squad's code does, so a sanitized build has none.
        let sanitizers: [String] = ["__tsan_init", "__asan_init"]
        guard !sanitizers.contains(where: { dlsym(nil, $0) != nil }) else { return }
        #if os(Linux)
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            func kilobytes(_ field: String) -> Int {
                let line = status.split(separator: "\n").first { $0.hasPrefix(field) }
                return line.flatMap {
                    Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
                } ?? 0
            }
            let (allowance, tooMany) = (megabytes << 20).addingReportingOverflow(threadStacks())
            let (bytes, overflow) = (kilobytes("VmData:") * 1024).addingReportingOverflow(allowance)
            // The address space too: memory written and then made read-only or inaccessible (`mprotect`) leaves
            // RLIMIT_DATA's count and stays resident, so the address space caps it, with room for what malloc
            // reserves and never touches (an arena per thread of 64 MiB, two at most: WorkerPool sets
            // MALLOC_ARENA_MAX).
            let (space, tooLarge) = (kilobytes("VmSize:") * 1024).addingReportingOverflow(allowance + reserved)
            guard !overflow, !tooMany, !tooLarge else { return }
            var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
            _ = setrlimit(Int32(RLIMIT_DATA.rawValue), &limit)
            var addresses = rlimit(rlim_cur: rlim_t(space), rlim_max: rlim_t(space))
            _ = setrlimit(Int32(RLIMIT_AS.rawValue), &addresses)
        #else
            var limit = rlimit(rlim_cur: rlim_t(megabytes << 20), rlim_max: rlim_t(megabytes << 20))
            _ = setrlimit(RLIMIT_DATA, &limit)
        #endif
    }

    /// The open files a worker may hold: its protocol's, Dispatch's and a few reads, with room to spare.
    static let openFiles = 256

    /// Address space malloc reserves beyond what it uses (two arenas, each mapped at twice its 64 MiB to align it).
    private static let reserved = 256 << 20

    /// What the worker's own threads' stacks may take: one per core for Swift's cooperative pool, and room for the
    /// others (this worker's reader and parent watcher, Dispatch's), each the size glibc gives a new thread (the
    /// soft stack limit; 8 MiB when there is none).
    private static func threadStacks() -> Int {
        #if os(Linux)
            var stack = rlimit()
            // No limit (RLIM_INFINITY) or none that reads: glibc's default.
            let given = getrlimit(Int32(RLIMIT_STACK.rawValue), &stack) == 0
            let size = given && stack.rlim_cur > 0 && stack.rlim_cur < 1 << 40 ? Int(stack.rlim_cur) : 8 << 20
            let threads = ProcessInfo.processInfo.activeProcessorCount + 8
            let (stacks, overflow) = size.multipliedReportingOverflow(by: threads)
            return overflow ? Int.max : stacks
        #else
            return 0
        #endif
    }

    /// A worker whose host dies ends too: its end of the socket closes (above), and a watcher sees the parent change.
    /// Not PR_SET_PDEATHSIG: it fires when the *thread* that started the worker ends, and the host starts workers
    /// from pool threads that come and go (a held load's worker was killed under load that way).
    private static func endWithParent() {
        let parent = getppid()
        Thread.detachNewThread {
            while getppid() == parent { sleep(1) }
            _exit(0)
        }
    }
}

/// A clock that starts at the host's time for the call, so a card's "minutes ago" agrees with the host's clock
/// (pinned by `COURIER_NOW` or not).
private struct CallClock: CourierClock {
    let base: Date
    let started = ContinuousClock.now

    func now() -> Date { base.addingTimeInterval((ContinuousClock.now - started).seconds) }
    func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}

/// A backend that asks the host: the worker's only way to the data.
private struct HostFetches: Backend {
    let server: WorkerServer
    let call: Int

    func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        switch await server.fetch(endpoint, for: call) {
        case .data(let data): return data
        case .fault(let fault): throw fault
        }
    }
}

/// The worker's state: the cards it has heard of, the infos it holds, its calls and fetches under way.
final class WorkerServer: Sendable {
    private struct State {
        var specs: [Int: SlotSpec] = [:]
        /// The last few infos of each card, newest last: a token the host still shows is among them.
        var infos: [Int: [(token: Int, info: AnyInfo)]] = [:]
        var nextToken = 0
        var triggers: [Int: CancelTrigger] = [:]
        var fetches: [Int: CheckedContinuation<FetchResult, Never>] = [:]
        var early: [Int: FetchResult] = [:]
        var nextFetch = 0
    }

    private let registrations: [ComponentID: ComponentRegistration]
    private let errands: [String: WorkerErrand]
    private let output: Int32
    /// The longest frame it sends (``WorkerFrames/limit``).
    private let limit: Int
    private let state = Locked(State())
    /// One frame at a time on the output (a lock of its own, guarding the descriptor rather than a value).
    private let writing = NSLock()
    /// How many infos of each card are kept: the one shown, one arriving, and room for events under way.
    static let kept = 4

    init(
        _ registrations: [ComponentRegistration], errands: [WorkerErrand], output: Int32,
        limit: Int = WorkerFrames.limit
    ) {
        self.registrations = Dictionary(registrations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.errands = Dictionary(errands.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        (self.output, self.limit) = (output, limit)
    }

    func begin(_ id: Int, slot: Int, spec: SlotSpec?) -> CancelTrigger {
        let trigger = CancelTrigger()
        state.withLock { state in
            if let spec { state.specs[slot] = spec }
            state.triggers[id] = trigger
        }
        return trigger
    }

    /// Sends the worker's greeting, its `build` (the first frame it writes).
    func greet(_ build: String) { send(.hello(build: build)) }

    func cancel(_ id: Int) { state.withLock { $0.triggers[id] }?.fire() }

    func reply(_ id: Int, _ reply: WorkerReply) {
        state.withLock { _ = $0.triggers.removeValue(forKey: id) }
        // One too large to cross is the call's failure, said now: dropped, the host would wait out its deadline.
        guard send(.reply(id: id, reply)) else {
            let most = "\(limit >> 20) MiB as JSON"
            send(.reply(id: id, .failed(Failure("the card's answer is larger than its worker may send (\(most))"))))
            return
        }
    }

    /// Sends `message`; false when it does not make a frame (too large), so nothing was sent.
    @discardableResult
    private func send(_ message: FromWorker) -> Bool {
        guard let frame = WorkerFrames.frame(message, limit: limit) else { return false }
        writing.lock()
        defer { writing.unlock() }
        // The host is gone when this fails: the read loop ends and the worker with it.
        _ = WorkerFrames.write(frame, to: output, socket: true)
        return true
    }

    func fetch(_ endpoint: Endpoint, for call: Int) async -> FetchResult {
        let id = state.withLock { state in
            state.nextFetch += 1
            return state.nextFetch
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let early = state.withLock { state -> FetchResult? in
                    if let early = state.early.removeValue(forKey: id) { return early }
                    state.fetches[id] = continuation
                    return nil
                }
                if let early { return continuation.resume(returning: early) }
                send(.fetch(id: id, call: call, segments: endpoint.segments))
            }
        } onCancel: {
            fetched(id, .fault(.transport("cancelled", path: endpoint.path)))
        }
    }

    func fetched(_ id: Int, _ result: FetchResult) {
        let waiting = state.withLock { state -> CheckedContinuation<FetchResult, Never>? in
            guard let waiting = state.fetches.removeValue(forKey: id) else {
                if state.nextFetch >= id { state.early[id] = state.early[id] ?? result }
                return nil
            }
            return waiting
        }
        waiting?.resume(returning: result)
    }

    private func store(_ info: AnyInfo, slot: Int) -> Int {
        state.withLock { state in
            state.nextToken += 1
            state.infos[slot, default: []].append((state.nextToken, info))
            if state.infos[slot]!.count > Self.kept { state.infos[slot]!.removeFirst() }
            return state.nextToken
        }
    }

    private func info(_ token: Int, slot: Int) -> AnyInfo? {
        state.withLock { $0.infos[slot]?.last { $0.token == token }?.info }
    }

    func run(_ id: Int, slot: Int, now: Date, _ op: WorkerOp) async -> WorkerReply {
        if case .errand(let name, let argument) = op {
            guard let errand = errands[name] else { return .failed(Failure("this module's worker has no '\(name)'")) }
            do { return .said(try await errand.run(HostFetches(server: self, call: id), argument)) } catch {
                return .failed(Failure(describing: error))
            }
        }
        guard let spec = state.withLock({ $0.specs[slot] }), let registration = registrations[spec.component] else {
            return .failed(Failure("this module's worker does not run that component"))
        }
        let context = ComponentContext(
            ids: spec.ids, backend: HostFetches(server: self, call: id), clock: CallClock(base: now),
            presentation: spec.presentation, timeout: spec.timeout, payload: spec.payload)
        let calls = registration.kernel(context: context).calls
        do {
            switch op {
            case .load(let received):
                let info = try await calls.load(received)
                return .info(token: store(info, slot: slot), json: info.json())
            case .draw(let state):
                switch state {
                case .loading: return .block(try await calls.draw(.loading))
                case .failed(let failure): return .block(try await calls.draw(.failed(failure)))
                case .info(let token):
                    guard let info = info(token, slot: slot) else { return .lost }
                    return .block(try await calls.draw(.info(info)))
                }
            case .answer(let token, let received, let json, let actions):
                guard let info = info(token, slot: slot) else { return .lost }
                let answer = try await calls.answer(info, received, json, actions)
                let after = answer.info ?? info
                let kept = after == info ? token : store(after, slot: slot)
                return .answer(
                    WorkerAnswer(
                        token: kept, infoJSON: after.json(), json: answer.json, block: answer.block,
                        events: answer.events, finished: answer.finished, refreshAfter: answer.refreshAfter,
                        verdicts: answer.verdicts))
            case .validate(let action, let token):
                guard let info = info(token, slot: slot) else { return .lost }
                return .verdict(try await calls.validate(action, info))
            case .errand: return .failed(Failure("an errand is no card's"))
            case .analytics(let moment):
                switch moment {
                case .shown(let token):
                    guard let info = info(token, slot: slot) else { return .lost }
                    return .analytics(try await calls.analytics(.shown(info)))
                case .hidden(let failure): return .analytics(try await calls.analytics(.hidden(failure)))
                case .stale(let since): return .analytics(try await calls.analytics(.stale(since: since)))
                case .verdict(let action, let verdict):
                    return .analytics(try await calls.analytics(.verdict(action, verdict)))
                }
            }
        } catch {
            return .failed(Failure(describing: error))
        }
    }
}
