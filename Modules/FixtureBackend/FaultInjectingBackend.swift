import Core
import Foundation

/// A fault a squad injects in front of its component's endpoint (`order-tracking preview --fail`).
public enum InjectedFault: String, CaseIterable, Sendable {
    /// HTTP 404.
    case notfound
    /// HTTP 500.
    case http500
    /// No answer until the component's deadline.
    case timeout
    /// A body that is not JSON.
    case malformed
}

/// Answers every fetch with the injected fault: the same faults the real backends produce, so a squad sees
/// each failure state of its card without a broken server.
public struct FaultInjectingBackend: Backend {
    let fault: InjectedFault
    let clock: any CourierClock

    /// A backend failing every fetch with `fault`; `timeout` waits on `clock`.
    public init(fault: InjectedFault, clock: any CourierClock) { (self.fault, self.clock) = (fault, clock) }

    /// The fault, for any endpoint.
    public func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        switch fault {
        case .notfound: throw .notFound(path: endpoint.path)
        case .http500: throw .httpStatus(500, path: endpoint.path)
        case .malformed: return Data("{\"truncated\": ".utf8)
        case .timeout:
            do { try await clock.sleep(for: .seconds(86_400)) } catch {}
            throw .timeout(path: endpoint.path)
        }
    }
}
