/// Runs `operation` and gives up after `limit` on `clock`, without waiting for an operation that ignores
/// cancellation: the caller is resumed at the deadline and the straggler is cancelled and left to finish alone.
public func withDeadline<Value: Sendable>(
    _ limit: Duration, on clock: any CourierClock,
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let race = DeadlineRace<Value>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.begin(continuation)
            let work = Task.placed { race.finish(await Result(catching: operation)) }
            let timer = clock.schedule(after: limit) { race.finish(.failure(DeadlineExceeded(limit: limit))) }
            race.track([{ work.cancel() }, { timer.cancel() }])
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The first of work, timer and cancellation to finish resumes the caller; the others are cancelled.
private final class DeadlineRace<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var finished = false
        var cancellers: [@Sendable () -> Void] = []
    }
    private let state = Locked(State())

    func begin(_ continuation: CheckedContinuation<Value, any Error>) {
        let finishedEarly = state.withLock { state in
            state.continuation = continuation
            return state.finished
        }
        if finishedEarly { continuation.resume(throwing: CancellationError()) }
    }

    func track(_ cancellers: [@Sendable () -> Void]) {
        let finished = state.withLock { state in
            if !state.finished { state.cancellers = cancellers }
            return state.finished
        }
        if finished { cancellers.forEach { $0() } }
    }

    func finish(_ result: Result<Value, any Error>) {
        let (continuation, cancellers) = state.withLock {
            state -> (CheckedContinuation<Value, any Error>?, [@Sendable () -> Void]) in
            guard !state.finished else { return (nil, []) }
            state.finished = true
            // Let go of the work task and the timer: a pending timer keeps this race alive until it fires.
            defer {
                state.continuation = nil
                state.cancellers = []
            }
            return (state.continuation, state.cancellers)
        }
        continuation?.resume(with: result)
        cancellers.forEach { $0() }
    }
}

/// The operation did not finish within its deadline.
public struct DeadlineExceeded: Error, Sendable, Equatable {
    /// The deadline that passed.
    public let limit: Duration
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
