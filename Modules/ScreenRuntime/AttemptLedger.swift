import Core
import Foundation

/// Where a sent action's attempts are kept until their outcome is known (Stripe's model of idempotency keys):
/// one key is made per attempt and kept with its request *before* the request goes out, a retry of the same
/// request reuses it, and a different request to the same place is refused while the earlier one is unsettled,
/// so a payment whose outcome is unknown can never be made a second time under a new key. The host passes one
/// in (``ScreenSettings/attempts``): a file per attempt in the data folder, or ``MemoryAttempts`` in tests.
public protocol AttemptLedger: Sendable {
    /// The key to send `request` under: the unsettled attempt's own when it holds the same request (same place,
    /// same body), else a new one, kept before this returns. Throws when it cannot be kept, or when an
    /// unsettled attempt to the same place holds another request.
    func begin(_ request: ActionRequest) throws(AttemptRefusal) -> String
    /// The backend took `request` under this run's key (a 2xx that agrees with it): the attempt is forgotten, if it
    /// still holds that key, and the next request to the same place is a new attempt.
    func settle(_ request: ActionRequest)
    /// This run's send of `request` failed before it went out, or was refused: the attempt is forgotten only if
    /// this run made it. One an earlier run sent (its outcome unknown) stays: this run's failure says nothing of it.
    func abandon(_ request: ActionRequest)
}

/// Why a request was not sent: the attempt could not be kept, or another one is pending.
public enum AttemptRefusal: Error, Sendable, Equatable {
    /// Nowhere to keep it (a full disk, an unwritable folder): the system's words and what to do.
    case unkept(String)
    /// An earlier attempt to the same place holds another request and has no known outcome: what it was and how
    /// to settle it.
    case pending(String)
}

/// Attempts kept in memory for one process: a test's ledger, or a run that sends nothing durable.
public final class MemoryAttempts: AttemptLedger {
    private let attempts = Locked([String: (body: Data, key: String, made: Bool)]())
    private let makeKey: @Sendable () -> String

    /// A ledger whose keys come from `makeKey` (a test passes a counter, so the keys it asserts are known).
    public init(makeKey: @escaping @Sendable () -> String) { self.makeKey = makeKey }

    /// The unsettled attempt's key for the same request, a new one for a new request, or a refusal.
    public func begin(_ request: ActionRequest) throws(AttemptRefusal) -> String {
        let result: Result<String, AttemptRefusal> = attempts.withLock { attempts in
            if let earlier = attempts[request.endpoint.path] {
                guard earlier.body == request.body else {
                    return .failure(.pending("an earlier \(request.action) to \(request.endpoint.path) is unsettled"))
                }
                return .success(earlier.key)
            }
            let key = makeKey()
            attempts[request.endpoint.path] = (request.body, key, true)
            return .success(key)
        }
        return try result.get()
    }

    /// Forgets the attempt holding `request`.
    public func settle(_ request: ActionRequest) {
        attempts.withLock { attempts in
            if attempts[request.endpoint.path]?.body == request.body { attempts[request.endpoint.path] = nil }
        }
    }

    /// Forgets the attempt holding `request` when this ledger made it.
    public func abandon(_ request: ActionRequest) {
        attempts.withLock { attempts in
            if let kept = attempts[request.endpoint.path], kept.body == request.body, kept.made {
                attempts[request.endpoint.path] = nil
            }
        }
    }

    /// Keeps an attempt as if an earlier run had sent it and its outcome were unknown (a test's starting point).
    public func keep(_ request: ActionRequest, key: String) {
        attempts.withLock { $0[request.endpoint.path] = (request.body, key, false) }
    }
}
