import Core
import Foundation

/// Where a sent action's attempts are kept (Stripe's model of idempotency keys): one key is made per attempt and
/// kept with its request *before* the request goes out; a retry of the same request reuses it; a different
/// request for the same subject is refused while the earlier one is unsettled; and a settled attempt is kept with
/// its answer for a retention period, so the same request again is answered from it, never sent under a new key.
/// An attempt is named by what is paid (the action and its ``ActionRequest/subject``), never by the place it is
/// sent. The host passes one in (``ScreenSettings/attempts``): a file per attempt in the data folder, or
/// ``MemoryAttempts`` in tests.
public protocol AttemptLedger: Sendable {
    /// How to go on with `request`: send it under its attempt's key (the unsettled attempt's own when it holds the
    /// same request, else a new one, kept before this returns), or answer it from a settled attempt of the same
    /// request. Throws when it cannot be kept, or when an attempt for the same subject holds another request.
    func begin(_ request: ActionRequest) throws(AttemptRefusal) -> AttemptStart
    /// The backend took `request` under this run's key (a 2xx that agrees with it): its answer is kept with the
    /// attempt, if it still holds that key. Throws, with the words to say and how to clean up, when it cannot be.
    func settle(_ request: ActionRequest, answer: KeptAnswer) throws(AttemptRefusal)
    /// This run's send of `request` failed before it went out, or was refused: the attempt is forgotten only if
    /// this run made it. One an earlier run sent (its outcome unknown) stays: this run's failure says nothing of it.
    func abandon(_ request: ActionRequest)
}

/// What a ledger says to do with a request.
public enum AttemptStart: Sendable, Equatable {
    /// Send it under this `Idempotency-Key`.
    case send(key: String)
    /// It was settled before (the same request for the same subject, within the retention period): its answer, and
    /// when it was kept. Nothing is sent.
    case answered(KeptAnswer, at: Date)
}

/// A settled attempt's answer, as its ``SendOutcome/done(_:unread:)`` had it: the fields, or why none could be read.
public struct KeptAnswer: Sendable, Equatable {
    /// The answer's fields.
    public let fields: [String: String]
    /// Why the answer could not be read, when it could not.
    public let unread: String?

    /// An answer of `fields`.
    public init(fields: [String: String], unread: String?) { (self.fields, self.unread) = (fields, unread) }
}

/// Why a request was not sent: the attempt could not be kept, or another one holds its subject.
public enum AttemptRefusal: Error, Sendable, Equatable {
    /// Nowhere to keep it (a full disk, an unwritable folder): the system's words and what to do.
    case unkept(String)
    /// An earlier attempt for the same subject holds another request (its outcome unknown, or settled and kept),
    /// or is too old to resend: what it was and how to settle it.
    case pending(String)
}

/// Attempts kept in memory for one process: a test's ledger, or a run that sends nothing durable. Kept answers
/// never age here.
public final class MemoryAttempts: AttemptLedger {
    private struct Attempt {
        let request: ActionRequest
        let key: String
        let made: Bool
        var answer: KeptAnswer?
    }
    private let attempts = Locked([String: Attempt]())
    private let makeKey: @Sendable () -> String

    /// A ledger whose keys come from `makeKey` (a test passes a counter, so the keys it asserts are known).
    public init(makeKey: @escaping @Sendable () -> String) { self.makeKey = makeKey }

    /// The unsettled attempt's key for the same request, the kept answer of a settled one, a new key for a new
    /// subject, or a refusal.
    public func begin(_ request: ActionRequest) throws(AttemptRefusal) -> AttemptStart {
        let result: Result<AttemptStart, AttemptRefusal> = attempts.withLock { attempts in
            let name = Self.name(request)
            if let earlier = attempts[name] {
                guard earlier.request.endpoint == request.endpoint, earlier.request.body == request.body else {
                    return .failure(.pending("an earlier \(request.action) of \(request.subjectWords) holds another"))
                }
                if let answer = earlier.answer {
                    return .success(.answered(answer, at: Date(timeIntervalSince1970: 0)))
                }
                return .success(.send(key: earlier.key))
            }
            let key = makeKey()
            attempts[name] = Attempt(request: request, key: key, made: true)
            return .success(.send(key: key))
        }
        return try result.get()
    }

    /// Keeps the answer with the attempt holding `request`.
    public func settle(_ request: ActionRequest, answer: KeptAnswer) throws(AttemptRefusal) {
        attempts.withLock { attempts in
            if attempts[Self.name(request)]?.request.body == request.body {
                attempts[Self.name(request)]?.answer = answer
            }
        }
    }

    /// Forgets the attempt holding `request` when this ledger made it.
    public func abandon(_ request: ActionRequest) {
        attempts.withLock { attempts in
            if let kept = attempts[Self.name(request)], kept.request.body == request.body, kept.made,
                kept.answer == nil
            {
                attempts[Self.name(request)] = nil
            }
        }
    }

    /// Keeps an attempt as if an earlier run had sent it and its outcome were unknown (a test's starting point).
    public func keep(_ request: ActionRequest, key: String) {
        attempts.withLock { $0[Self.name(request)] = Attempt(request: request, key: key, made: false) }
    }

    private static func name(_ request: ActionRequest) -> String {
        ([request.action] + request.subject.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
            .joined(separator: "\n")
    }
}
