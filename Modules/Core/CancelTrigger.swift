/// Fired once, from anywhere (a signal's handler, a thread watching stdout, the screen's loop), to cancel one
/// piece of structured work: a task group can only cancel all its children at once, and an unstructured task
/// to cancel by hand would outlive its caller. ``cancelling(when:_:)`` runs the work beside a wait for this.
public final class CancelTrigger: Sendable {
    private struct State {
        var fired = false
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Locked(State())

    /// A trigger not yet fired.
    public init() {}

    /// Whether it has fired: the work it guards was (or is being) cancelled for it.
    public var fired: Bool { state.withLock { $0.fired } }

    /// Cancels the work it guards; a second call does nothing.
    public func fire() {
        let waiter = state.withLock { state in
            state.fired = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Until it fires or the waiting task is cancelled (the work ended first).
    fileprivate func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let fired = state.withLock { state in
                    if !state.fired { state.waiter = continuation }
                    return state.fired
                }
                if fired { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
    }
}

/// Runs `work` as a child task and cancels it when `trigger` fires (or the caller is cancelled), then waits for
/// it to end and returns what it returned: the work stays in its caller's task tree (and on its executor), and
/// its answer after a cancellation is the caller's to keep or drop.
public func cancelling<Value: Sendable>(
    when trigger: CancelTrigger, _ work: @escaping @Sendable () async -> Value
) async -> Value {
    await withTaskGroup(of: Value?.self) { race in
        race.addTask { await work() }
        race.addTask {
            await trigger.wait()
            return nil
        }
        var answer: Value?
        while let next = await race.next() {
            race.cancelAll()
            if let next { answer = next }
        }
        // The work's child always answers: only the trigger's gives nil.
        return answer!
    }
}
