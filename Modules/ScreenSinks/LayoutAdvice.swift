import Core
import Foundation
import ScreenRuntime

extension LayoutFailure {
    /// What a person should try when `what` (a screen's definition, its layout) cannot be had: the run is fatal.
    /// A 404 of a subject's own layout means the subject (`order 9999`) does not exist; `hint` is the host's word
    /// on what exists instead (its demo's subject), since a sink knows no host's data.
    public func advice(
        what: String, subject: (kind: String, id: String)? = nil, hint: String? = nil, timeout: Duration
    ) -> String {
        switch self {
        case .notFound(let path):
            guard let subject else { return "cannot load \(what): \(path): not found (404)" }
            return "\(subject.kind) '\(subject.id)' not found (\(path): 404)"
                + (hint.map { "; " + $0 } ?? "")
        case .noAnswer(let path):
            return "cannot load \(what): \(path): no answer within \(String(format: "%g", timeout.seconds))s; "
                + "check --api or raise --timeout"
        case .unreachable(let error): return "cannot load \(what): \(error); check --api or try again later"
        case .unreadable(let failure): return "cannot load \(what): \(failure)"
        }
    }
}
