import Core
import Foundation
import Testing

/// Failures say whether the way to the data failed (a screen keeps the last card, stale) or the data itself.
@Suite struct FailureTests {
    @Test(arguments: [
        (BackendError.httpStatus(503, path: "a"), true), (.httpStatus(500, path: "a"), true),
        (.transport("connection refused", path: "a"), true), (.timeout(path: "a"), true),
        (.notFound(path: "a"), false), (.httpStatus(403, path: "a"), false), (.invalidRequest("bad id"), false),
    ])
    func theWayToTheDataFailingIsTransient(error: BackendError, transient: Bool) {
        #expect(Failure(describing: error).transient == transient)
    }

    @Test func aDeadlineIsTransientAndBrokenDataIsNot() async throws {
        do {
            try await withDeadline(.milliseconds(1), on: SystemClock()) { try await Task.sleep(for: .seconds(5)) }
            Issue.record("the deadline did not fire")
        } catch {
            #expect(error is DeadlineExceeded && Failure(describing: error).transient)
        }
        let broken = Result { try JSONDecoder().decode([String: Int].self, from: Data("[".utf8)) }
        guard case .failure(let error) = broken else { throw Failure("decoding '[' succeeded") }
        #expect(!Failure(describing: error).transient)
        #expect(!Failure("amount out of range").transient)
    }
}
