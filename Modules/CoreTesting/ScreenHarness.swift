import Core
import Foundation
import ScreenRuntime

/// A whole screen in-process on a ``VirtualClock``: the runtime's frames recorded as they come, virtual time
/// moved only once every task of the screen is waiting (the clock's executor knows exactly when). A minute of
/// a live order runs in milliseconds.
public final class ScreenHarness: Sendable {
    /// The clock the screen, its components and (usually) its backend run on.
    public let clock: VirtualClock
    /// The runtime under test (its actions, such as `reloadNow()`, are the test's to call).
    public let runtime: ScreenRuntime
    private let record = Record()

    /// What the run handed out, shared with the closures the runtime calls.
    private final class Record: Sendable {
        let frames = Locked<[(frame: ScreenFrame, moment: FrameMoment)]>([])
        let said = Locked<[String]>([])
        let analytics = Locked<[(id: ComponentID, event: AnalyticsEvent)]>([])
        let result = Locked<ScreenFrame?>(nil)
        let task = Locked<Task<Void, Never>?>(nil)
    }

    /// A screen of `entries` from `registry` over `backend`, on `clock`. Diagnostics are kept in ``diagnostics``.
    public init(
        entries: [ScreenEntry], registry: ComponentRegistry, backend: any Backend, clock: VirtualClock,
        settings: ScreenSettings
    ) {
        self.clock = clock
        let record = record
        runtime = ScreenRuntime(
            entries: entries, registry: registry, backend: backend, clock: clock, settings: settings,
            report: RuntimeReport(
                diagnostic: { line in record.said.withLock { $0.append(line) } },
                analytics: { event, id in record.analytics.withLock { $0.append((id, event)) } }))
    }

    /// Every frame so far, in order.
    public var frames: [ScreenFrame] { record.frames.withLock { $0.map(\.frame) } }
    /// The settled frames so far (after the first loads and after each round).
    public var settled: [ScreenFrame] {
        record.frames.withLock { $0.filter { $0.moment == .settled }.map(\.frame) }
    }
    /// What the runtime said on "stderr".
    public var diagnostics: [String] { record.said.withLock { $0 } }
    /// The analytics events the squads asked to record, with the card each came from.
    public var analytics: [(id: ComponentID, event: AnalyticsEvent)] { record.analytics.withLock { $0 } }
    /// The frame the run returned, once it has ended.
    public var final: ScreenFrame? { record.result.withLock { $0 } }

    /// Starts the run in a task.
    public func start() {
        let record = record
        let runtime = runtime
        let task = clock.start {
            let last = await runtime.run { frame, moment in record.frames.withLock { $0.append((frame, moment)) } }
            record.result.withLock { $0 = last }
        }
        record.task.withLock { $0 = task }
    }

    /// Ends a watching run as a signal would (the task is cancelled) and returns its last frame.
    public func stop() async -> ScreenFrame? {
        let task = record.task.withLock { $0 }
        task?.cancel()
        await task?.value
        return final
    }

    /// Lets the screen run for `duration` of virtual time: whenever every task is waiting, the clock jumps to the
    /// next deadline (never past the end).
    public func run(for duration: Duration) async {
        let end = clock.now().addingTimeInterval(duration.seconds)
        while true {
            await clock.settle()
            guard final == nil, let next = clock.nextWake, next <= end else { break }
            clock.advanceToNextDeadline()
        }
        let rest = end.timeIntervalSince(clock.now())
        if rest > 0 { clock.advance(by: .milliseconds(Int64((rest * 1000).rounded()))) }
        await clock.settle()
    }

    /// Delivers `event` to the running screen (`ScreenRuntime.deliver(_:)`), moving the clock whenever the
    /// delivery waits on it (a reload with latency); nil if it is still waiting once nothing sleeps on the clock.
    public func deliver(_ event: DomainEvent) async -> [ComponentID: EventReaction]? {
        let runtime = runtime
        let answer = Locked([ComponentID: EventReaction]?.none)
        let task = clock.start {
            let reactions = await runtime.deliver(event)
            answer.withLock { $0 = reactions }
        }
        while true {
            await clock.settle()
            guard answer.withLock({ $0 }) == nil, clock.nextWake != nil else { break }
            clock.advanceToNextDeadline()
        }
        if answer.withLock({ $0 }) != nil { await task.value } else { task.cancel() }
        return answer.withLock { $0 }
    }

    /// Runs until the screen ends (at most `limit` of virtual time) and returns its last frame.
    public func finish(within limit: Duration = .seconds(3600)) async -> ScreenFrame? {
        let end = clock.now().addingTimeInterval(limit.seconds)
        while true {
            await clock.settle()
            guard final == nil, let next = clock.nextWake, next <= end else { break }
            clock.advanceToNextDeadline()
        }
        return final
    }
}
