import Foundation
import HostIO
import Testing

/// A command whose work blocks (squad on git or stdin) still ends when its task is cancelled: the caller stops
/// waiting and answers at once, so a signal ends the process by the run's own unwinding, not by the handler's
/// last resort.
@Suite struct BlockingWorkTests {
    @Test func aCancelledCallerStopsWaitingForWorkThatIsStillBlocked() async {
        let gate = DispatchSemaphore(value: 0)
        let call = Task {
            await blockingWork(ifCancelled: 3) {
                gate.wait()
                return 7
            }
        }
        call.cancel()
        // Frees the work later whatever happens, so a caller that waited for it fails (7) instead of hanging.
        DispatchQueue.global().asyncAfter(deadline: .now() + 300) { gate.signal() }
        #expect(await call.value == 3, "the cancelled caller answers without the blocked work")
        gate.signal()
    }

    @Test func workThatEndsGivesItsOwnStatus() async {
        #expect(await blockingWork(ifCancelled: 3) { 7 } == 7)
    }
}
