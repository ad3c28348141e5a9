import Dispatch
import Foundation
import TerminalUI

/// A backend that never answers: fuzzed components must decode their inline payload only.
struct NoBackend: Backend {
    func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data { throw .notFound(path: endpoint.path) }
}

/// Feeds `bytes` to `component` as its payload slice, then draws whatever state it reached at two widths.
func fuzzComponent<C: Component>(_ component: C, _ bytes: UnsafeBufferPointer<UInt8>) {
    let context = ComponentContext(
        ids: ["order": "1"], backend: NoBackend(), clock: SystemClock(), timeout: .seconds(5), payload: Data(bytes))
    let done = DispatchSemaphore(value: 0)
    let result = Box<ComponentState<C.Info>>(.loading)
    Task {
        do { result.value = .info(try await component.load(context)) } catch {
            result.value = .failed(Failure(describing: error))
        }
        done.signal()
    }
    done.wait()
    for width in [16, 61] {
        if let block = component.card(for: result.value, context: context) {
            _ = CardRenderer.lines(for: block, width: width, styler: TextStyler(colors: true))
            // The text sink: nothing of the payload reaches the terminal as a control character.
            for line in CardRenderer.lines(for: block, width: width, styler: TextStyler(colors: false))
            where line.unicodeScalars.contains(where: SafeText.isUnsafe) {
                fatalError("a control character reached the card: \(line.debugDescription)")
            }
        }
    }
}

/// Hands a value from the fuzzed task back to the fuzzer's thread (the semaphore orders the accesses).
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
