import Foundation

/// Why a component failed, in words a person can act on; the host shows or logs it.
public struct Failure: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// The human-readable reason, e.g. "payment.json: missing key 'logo'".
    public let reason: String
    /// Whether the way to the data failed (connection refused or reset, timeout, HTTP 5xx) rather than the
    /// data itself: a host may keep the last info on screen, marked stale, while it is so.
    public let transient: Bool

    /// Creates a failure from a reason.
    public init(_ reason: String, transient: Bool = false) { (self.reason, self.transient) = (reason, transient) }

    /// The reason.
    public var description: String { reason }

    /// Two failures are the same when they say the same: `transient` follows from the cause, not the words.
    public static func == (one: Failure, other: Failure) -> Bool { one.reason == other.reason }
}

extension Failure {
    /// Turns any load error into a reason a person can read, naming the endpoint or the missing field.
    public init(describing error: any Error) {
        switch error {
        case let failure as Failure: self = failure
        case let backend as BackendError: self.init(backend.description, transient: backend.isTransient)
        case let deadline as DeadlineExceeded:
            self.init("no answer within \(String(format: "%g", deadline.limit.seconds))s", transient: true)
        case is CancellationError: self.init("cancelled")
        case let decoding as DecodingError: self.init("unexpected payload: \(decoding.summary)")
        default: self.init("\(error)")
        }
    }
}

extension DecodingError {
    /// "missing key 'logo' at method" rather than Foundation's debug dump.
    var summary: String {
        func at(_ context: Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "" : " at \(path)"
        }
        switch self {
        case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)'\(at(context))"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let what = context.codingPath.isEmpty ? "the payload" : "the value"
            return "\(what) must be \(Self.kind(type))\(at(context))"
        case .dataCorrupted(let context) where context.debugDescription.hasPrefix("Cannot initialize"):
            return "a value this card does not know\(at(context))"
        case .dataCorrupted(let context):
            let detail = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            // Foundation says this, with no path, both for broken JSON and for a number too large for its field.
            if context.codingPath.isEmpty, detail == nil, context.debugDescription.hasSuffix("not valid JSON.") {
                return "not valid JSON, or a number too large for its field"
            }
            return context.debugDescription + (detail.map { " (\($0))" } ?? "") + at(context)
        @unknown default: return "a payload this card cannot read"
        }
    }

    /// A Swift type in the words of JSON ("an object", "a number"): people read payloads, not our types.
    static func kind(_ type: Any.Type) -> String {
        let name = String(String(describing: type).prefix { $0.isLetter })
        let numbers = ["Int", "UInt", "Double", "Float", "Decimal"]
        let words = ["Dictionary": "an object", "Array": "a list", "String": "a string", "Bool": "true or false"]
        return numbers.contains(name) ? "a number" : words[name] ?? "a value of another kind"
    }
}
