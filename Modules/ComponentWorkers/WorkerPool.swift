import Core
import Foundation
import ScreenRuntime

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The host's side of isolation: it runs each isolated module's component code in a worker process of that
/// module (started on first use, reused for every later call) and supervises them, so that a squad's trap, stack
/// overflow, runaway allocation or spin costs only that module's cards. Cards of other modules run in this process.
public final class WorkerPool: ComponentRunner {
    /// How a module that crashed stands with its supervisor (a module with no record works).
    private enum Supervision {
        /// Its crashes within the last ``crashPeriod`` (their times on the run's clock, oldest first; never empty)
        /// and the last one's reason: it is started again once the back-off after the last has passed.
        case crashing(at: [Date], reason: Failure)
        /// ``crashLimit`` crashes came within ``crashPeriod``: it is not started again in this run.
        case givenUp(reason: Failure)
    }

    private struct State {
        var links: [String: WorkerLink] = [:]
        var supervision: [String: Supervision] = [:]
        var started = 0
        var nextSlot = 0
        var closed = false
        /// A worker greeted with another build: the executable was rebuilt since the run started, and no worker is
        /// started again (each would be of the new build); said as every later call's failure, never a crash.
        var rebuilt: Failure?
        var trace: (@Sendable (String) -> Void)?
        /// The missing protections have been said on the trace (once a run).
        var saidMissing = false
    }

    private let command: [String]
    /// The build its workers must greet with (``BuildIdentity``).
    private let build: String
    /// The executable's name, as the refusal of another build says it.
    private let tool: String
    private let isolated: Set<ComponentID>
    private let clock: any CourierClock
    private let environment: [String: String]
    /// Each module's declared fetches; nil: any (a pool with no declarations, tests of supervision).
    private let reach: [String: DeclaredReach]?
    /// The protections this system cannot apply to a worker, said once on the trace.
    private let missing: [WorkerProtection]
    private let state = Locked(State())
    /// The settings a worker is given, by name, when the host has them: the locale's and the time zone's (what a
    /// card's formatting reads), the sanitizers' (a sanitized build's workers report as the host does) and the test
    /// runner's marker (`Scripts/test-clean` finds a worker a run left behind by it). Nothing else the person
    /// exported reaches a squad's code: no token, no path, no other `COURIER_` setting.
    public static let passedOn: Set<String> = [
        "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY",
        "LC_MESSAGES", "TZ", "TSAN_OPTIONS", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "COURIER_TEST_RUN",
    ]
    /// After this many crashes within ``crashPeriod`` a module's worker is not started again for the rest of the
    /// run; crashes spread wider than that are restarted for ever (an OTP supervisor's intensity and period).
    public static let crashLimit = 5
    /// The period ``crashLimit`` crashes must come within for a module to be given up, on the run's clock.
    public static let crashPeriod: Duration = .seconds(60)
    /// The least time a call other than a load (drawing, answering, judging) is given before its worker is ended.
    static let drawingFloor: Duration = .seconds(5)

    /// Workers started as `command` + the module's name (the host's own executable and its internal subcommand)
    /// for the components in `isolated`, supervised on `clock`, with the ``passedOn`` part of `environment`; each
    /// module's fetches held to its `reach` (nil: any), and `missing` the protections this system cannot apply.
    /// Its workers must greet with `build`, the host's own (nil: the build of `command`'s executable as it is now).
    public init(
        command: [String], isolated: Set<ComponentID>, clock: any CourierClock, environment: [String: String],
        reach: [String: DeclaredReach]? = nil, missing: [WorkerProtection] = [], build: String? = nil
    ) {
        (self.command, self.isolated, self.clock, self.reach, self.missing) =
            (command, isolated, clock, reach, missing)
        let executable = command.first ?? ""
        self.build = build ?? BuildIdentity.of(file: executable)
        tool = String(executable.split(separator: "/").last ?? "")
        var passed = environment.filter { Self.passedOn.contains($0.key) }
        // A trap prints its message and ends at once, without the runtime's symbolicated backtrace (seconds).
        passed["SWIFT_BACKTRACE"] = "enable=no"
        // One arena beside the main one: each reserves address space the worker's cap must leave room for.
        passed["MALLOC_ARENA_MAX"] = "2"
        self.environment = passed
    }

    /// Where `--trace` lines about workers go (starts, ends, crashes, restarts refused, fetches refused); the first
    /// says, once a run, which protections this system could not apply.
    public func trace(to trace: (@Sendable (String) -> Void)?) {
        let first = state.withLock { state -> Bool in
            state.trace = trace
            defer { if trace != nil { state.saidMissing = true } }
            return trace != nil && !state.saidMissing
        }
        if first, let line = WorkerSandbox.line(missing) { trace?(line) }
    }

    /// The line saying what this system cannot hold its workers to (`components` says it), or nil.
    public var unapplied: String? { WorkerSandbox.line(missing) }

    /// Stops every worker with the host (Ctrl-Z): a squad's spin does not go on while the person has stopped the run.
    public func stopAll() { for link in state.withLock({ Array($0.links.values) }) { link.signal(SIGSTOP) } }

    /// Continues every worker with the host (`fg`, `bg`).
    public func continueAll() { for link in state.withLock({ Array($0.links.values) }) { link.signal(SIGCONT) } }

    /// How long a module waits after its `crashes`-th crash within ``crashPeriod`` before its worker is started
    /// again.
    public static func backOff(after crashes: Int) -> Duration { .seconds(1 << min(max(crashes - 1, 0), 5)) }

    /// Ends every worker (the run is over), all at once: each is asked to stop (its pipe closed, then SIGTERM) and
    /// ended a grace later on the run's clock if it has not, so closing many takes one grace, not one each. Returns
    /// once every one has ended. Calls after this fail.
    public func close() {
        let links = state.withLock { state in
            state.closed = true
            defer { state.links = [:] }
            return Array(state.links.values)
        }
        for link in links { link.stop() }
        for link in links { link.waitForEnd() }
    }

    /// The kernel of `registration`: its code in its module's worker when isolated, else in this process.
    public func kernel(_ registration: ComponentRegistration, context: ComponentContext) -> CardKernel {
        let local = registration.kernel(context: context)
        guard isolated.contains(registration.id) else { return local }
        let slot = state.withLock { state in
            state.nextSlot += 1
            return state.nextSlot
        }
        let spec = SlotSpec(
            component: registration.id, ids: context.ids, presentation: context.presentation,
            timeout: context.timeout, payload: context.payload)
        let card = RemoteCard(pool: self, module: registration.module, slot: slot, spec: spec, context: context)
        // Started now, while the screen is being built and its first frame drawn, rather than at the first load:
        // its start-up overlaps the host's. A worker that cannot start is said by the card's first call.
        _ = link(for: registration.module)
        return CardKernel(
            id: local.id, consumes: local.consumes, refreshesOn: local.refreshesOn, validates: local.validates,
            publishes: local.publishes, calls: card.calls)
    }

    /// Errand `id` (a login hook) of `module`, run in that module's worker with `argument` (JSON), its fetches on
    /// `backend`: what it said, or why not (its code threw or stopped; the worker gone is that call's failure only).
    public func errand(_ id: String, of module: String, _ argument: Data, backend: any Backend, now: Date)
        async throws(Failure) -> String
    {
        let link = try link(for: module).get()
        // Slot 0 is no card's: an errand names no info and needs no card's description.
        // Its answer does not start the crash count over: only a card drawn does (a module that crashes after every
        // errand is given up).
        let reply = try await link.call(
            slot: 0, spec: nil, now: now, .errand(id: id, argument: argument), backend: backend, limit: nil
        ).get()
        switch reply {
        case .said(let line): return line
        case .failed(let failure): throw failure
        default: throw Failure("\(module)'s worker answered out of turn")
        }
    }

    /// The running worker of `module`, started if need be, or why there is none (a crash whose back-off has not
    /// passed, too many crashes, the run is over, it could not start). Decided and started under the pool's lock,
    /// so two cards of one module asking at once share one worker.
    func link(for module: String) -> Result<WorkerLink, Failure> {
        let now = clock.now()
        let (result, trace) = state.withLock { state -> (Result<WorkerLink, Failure>, (@Sendable (String) -> Void)?) in
            if state.closed { return (.failure(Failure("the run is over")), nil) }
            if let link = state.links[module], !link.hasEnded { return (.success(link), nil) }
            // Workers of the run's own build go on; none is started from the rebuilt executable.
            if let rebuilt = state.rebuilt { return (.failure(rebuilt), nil) }
            switch state.supervision[module] {
            case .givenUp(let reason): return (.failure(reason), nil)
            case .crashing(let times, let reason)
            where now < (times.last ?? now).addingTimeInterval(Self.backOff(after: times.count).seconds):
                return (.failure(reason), nil)
            case .crashing, nil: break
            }
            state.started += 1
            do throws(Failure) {
                let link = try WorkerLink.start(
                    command + [module], module: module, incarnation: state.started, environment: environment,
                    reach: reach.map { $0[module] ?? DeclaredReach([]) } ?? .anything, clock: clock, build: build,
                    tool: tool, refused: { [weak self] line in self?.said("worker \(module): \(line)") }
                ) { [weak self] link, reason, end in self?.ended(link, reason, end) }
                state.links[module] = link
                return (.success(link), state.trace)
            } catch { return (.failure(error), nil) }
        }
        if case .success(let link) = result { trace?("worker \(module): started (pid \(link.pid))") }
        return result
    }

    /// A line for the trace, if there is one.
    private func said(_ line: String) { state.withLock { $0.trace }?(line) }

    private func ended(_ link: WorkerLink, _ reason: Failure, _ end: WorkerEnd) {
        let now = clock.now()
        let trace = state.withLock { state -> (@Sendable (String) -> Void)? in
            if state.links[link.module] === link { state.links[link.module] = nil }
            switch end {
            case .crashed:
                state.supervision[link.module] = Self.supervision(state.supervision[link.module], now, reason)
            case .otherBuild: state.rebuilt = state.rebuilt ?? reason
            case .closed: break
            }
            return state.trace
        }
        switch end {
        case .crashed: trace?("worker \(link.module): crashed: \(reason.reason)")
        case .otherBuild: trace?("worker \(link.module): refused: \(reason.reason)")
        case .closed: trace?("worker \(link.module): ended")
        }
    }

    /// A module's record after a crash at `now` for `reason`: the crashes within the last ``crashPeriod``, or given
    /// up when they reach ``crashLimit``.
    private static func supervision(_ record: Supervision?, _ now: Date, _ reason: Failure) -> Supervision {
        let earlier: [Date]
        switch record {
        case .givenUp(let reason)?: return .givenUp(reason: reason)
        case .crashing(let times, _)?: earlier = times.filter { now.timeIntervalSince($0) < crashPeriod.seconds }
        case nil: earlier = []
        }
        let recent = earlier + [now]
        guard recent.count >= crashLimit else { return .crashing(at: recent, reason: reason) }
        let period = Int(crashPeriod.seconds)
        return .givenUp(
            reason: Failure("\(reason.reason) (stopped \(recent.count) times within \(period) s; not started again)"))
    }

    /// How many crashes of `module` count now (within ``crashPeriod`` of the last, or the limit once given up).
    func crashes(of module: String) -> Int {
        switch state.withLock({ $0.supervision[module] }) {
        case .crashing(let times, _): times.count
        case .givenUp: Self.crashLimit
        case nil: 0
        }
    }

    /// A card's info was drawn: the module's code works again, and its crash count starts over (the only thing
    /// that starts it over; a module given up stays so).
    func drawn(_ module: String) {
        state.withLock { state in
            if case .crashing = state.supervision[module] { state.supervision[module] = nil }
        }
    }
}

/// A token naming info its module's worker holds: which start of the worker, which info.
struct HeldInfo: Sendable, Equatable {
    let incarnation: Int
    let token: Int
}

/// One isolated card's calls: each goes to its module's worker, and infos come back as tokens.
private struct RemoteCard: Sendable {
    let pool: WorkerPool
    let module: String
    let slot: Int
    let spec: SlotSpec
    let context: ComponentContext

    /// What a reply in place of the one expected means.
    private func unexpected(_ reply: WorkerReply) -> Failure {
        if case .failed(let failure) = reply { return failure }
        if case .lost = reply { return Failure("\(module)'s worker no longer holds this card's info; it loads again") }
        return Failure("\(module)'s worker answered out of turn")
    }

    /// Sends `op` (built for the worker it goes to, which names infos by its own tokens) and waits for the reply.
    /// `works`: a reply means the module's code works again (its card's info was drawn), and its crash count
    /// starts over; other calls (drawing a failed card, analytics) answer even while its loads hang or crash.
    private func call(
        limit: Duration?, works: Bool = false, _ op: (WorkerLink) throws(Failure) -> WorkerOp
    ) async throws(Failure) -> (WorkerReply, WorkerLink) {
        let link = try pool.link(for: module).get()
        let built = try op(link)
        let reply = try await link.call(
            slot: slot, spec: spec, now: context.clock.now(), built, backend: context.backend, limit: limit
        ).get()
        if works, case .answer = reply { pool.drawn(module) }
        return (reply, link)
    }

    /// The token of `info` in `link`'s worker, or the failure of a card whose info went with an earlier worker.
    private func token(_ info: AnyInfo, in link: WorkerLink) throws(Failure) -> Int {
        guard let held = info.value as? HeldInfo, held.incarnation == link.incarnation else {
            throw Failure("\(module)'s worker was started again and no longer holds this card's info")
        }
        return held.token
    }

    var calls: KernelCalls {
        // Drawing and judging are quick; the limit only ends a spin. At least five seconds, so a short `--timeout`
        // for loads never ends a worker that is merely slow to draw on a busy machine.
        let limit = max(context.timeout, WorkerPool.drawingFloor)
        return KernelCalls(
            load: { received in
                let (reply, link) = try await call(limit: nil) { _ in .load(received: received) }
                guard case .info(let token, let json) = reply else { throw unexpected(reply) }
                return AnyInfo(held: HeldInfo(incarnation: link.incarnation, token: token), json: json)
            },
            draw: { (state: ComponentState<AnyInfo>) async throws(Failure) -> Block? in
                let (reply, _) = try await call(limit: limit) { link throws(Failure) in
                    switch state {
                    case .loading: .draw(.loading)
                    case .failed(let failure): .draw(.failed(failure))
                    case .info(let info): .draw(.info(try token(info, in: link)))
                    }
                }
                guard case .block(let block) = reply else { throw unexpected(reply) }
                return block
            },
            answer: {
                (info: AnyInfo, received: [DomainEvent], json: Bool, actions: [UserAction]) async throws(Failure)
                    -> CardAnswer in
                let (reply, link) = try await call(limit: limit, works: true) { link throws(Failure) in
                    .answer(info: try token(info, in: link), received: received, json: json, actions: actions)
                }
                guard case .answer(let worked) = reply else { throw unexpected(reply) }
                var answer = CardAnswer(
                    info: AnyInfo(
                        held: HeldInfo(incarnation: link.incarnation, token: worked.token), json: worked.infoJSON),
                    json: worked.json, block: worked.block)
                (answer.events, answer.finished) = (worked.events, worked.finished)
                (answer.refreshAfter, answer.verdicts) = (worked.refreshAfter, worked.verdicts)
                return answer
            },
            validate: { (action: UserAction, info: AnyInfo) async throws(Failure) -> Verdict? in
                let (reply, _) = try await call(limit: limit) { link throws(Failure) in
                    .validate(action, info: try token(info, in: link))
                }
                guard case .verdict(let verdict) = reply else { throw unexpected(reply) }
                return verdict
            },
            analytics: { (moment: Moment<AnyInfo>) async throws(Failure) -> [AnalyticsEvent] in
                let (reply, _) = try await call(limit: limit) { link throws(Failure) in
                    switch moment {
                    case .shown(let info): .analytics(.shown(try token(info, in: link)))
                    case .hidden(let failure): .analytics(.hidden(failure))
                    case .stale(let since): .analytics(.stale(since: since))
                    case .verdict(let action, let verdict): .analytics(.verdict(action, verdict))
                    }
                }
                guard case .analytics(let events) = reply else { throw unexpected(reply) }
                return events
            })
    }
}
