import Core
import Foundation
import JSON

/// What became of a confirmed action's send, as far as this side can know. Three answers, because a person acts
/// on them differently: "failed" invites trying again, so it is said only when nothing was sent or the backend
/// refused; whenever the request may have been acted on, the outcome is unknown and is never called a failure.
public enum SendOutcome: Sendable, Equatable {
    /// The backend took it (a 2xx): its answer's fields, or none and why the answer could not be read (empty, not
    /// a JSON object).
    case done([String: String], unread: String?)
    /// Not done: nothing was sent (refused before sending, the connection refused, no such host), or the backend
    /// refused it with a 4xx, which says nothing was done.
    case failed(String)
    /// It may have been done: the request went out and no answer says how it ended (the connection dropped or
    /// the time ran out after sending, a redirect that is not followed, a 5xx, a 409 for a request with the same
    /// key still under way).
    case unknown(String)
    /// Not sent: an earlier attempt for the same subject holds another request (its outcome not known, or
    /// settled and kept), or is too old to resend (``AttemptLedger``); why, and how to settle it.
    case pending(String)
    /// Not sent, because it was done before: a settled attempt of the same request, kept since `at`, answers it
    /// (a retry of a run that paid gets that payment, never a second one).
    case kept(KeptAnswer, at: Date)

    /// A 2xx answer's `data` from `endpoint`: its fields when it is a JSON object (strings, numbers and booleans
    /// as their text, anything else as its JSON), else done with why it could not be read.
    public init(answer data: Data, from endpoint: Endpoint) {
        guard case .object(let object)? = try? JSONValue(parsing: data) else {
            let why = data.isEmpty ? "the answer is empty" : "the answer is not a JSON object"
            self = .done([:], unread: "\(endpoint.path): \(why)")
            return
        }
        var fields: [String: String] = [:]
        for (name, value) in object {
            switch value {
            case .string(let text): fields[name] = text
            case .number(let number):
                fields[name] =
                    number == number.rounded() && abs(number) < 1e15
                    ? String(Int64(number)) : String(number)
            case .bool(let flag): fields[name] = String(flag)
            // Anything else (an object, a list, null) as its JSON text: never a value that was sent, so an answer
            // giving one for a sent field contradicts it.
            default: fields[name] = value.text
            }
        }
        self = .done(fields, unread: nil)
    }

    /// A send that threw `fault`, read by ``Backend/send(_:body:headers:)``'s contract: a fault after the request
    /// went out and any answer but a refusal is unknown; a 4xx (but 409) or a fault before sending is a failure.
    public init(fault: BackendError) {
        switch fault {
        case .unanswered: self = .unknown(fault.description)
        case .httpStatus(let code, _) where (300..<400).contains(code):
            self = .unknown("\(fault.description): a redirect, not followed for a send")
        case .httpStatus(409, _):
            // The Idempotency-Key draft's answer to a request whose key is still being processed: the same payment.
            self = .unknown(
                "\(fault.description): a conflict (a request with the same Idempotency-Key may be under way)")
        case .httpStatus(let code, _) where (400..<500).contains(code):
            self = .failed("\(fault.description): refused, nothing was done")
        case .httpStatus: self = .unknown(fault.description)
        case .notFound: self = .failed("\(fault.description): refused, nothing was done")
        case .timeout, .transport, .invalidRequest: self = .failed("\(fault.description); nothing was sent")
        }
    }
}
