import Core
import Testing

@Suite struct StateMachineTests {
    static let legal: [Phase: [Transition: Phase]] = [
        .loading: [.receive: .info, .fail: .failed],
        .info: [.receive: .info, .refresh: .loading, .fail: .failed],
        .failed: [.retry: .loading],
    ]

    @Test(arguments: Phase.allCases, Transition.allCases)
    func everyPairIsLegalOrATypedError(phase: Phase, transition: Transition) {
        let result = StateMachine.next(after: phase, on: transition)
        if let expected = Self.legal[phase]?[transition] {
            #expect(result == .success(expected))
        } else {
            #expect(result == .failure(IllegalTransition(from: phase, transition: transition)))
            let message = "illegal transition '\(transition.rawValue)' from '\(phase.rawValue)'"
            #expect("\(IllegalTransition(from: phase, transition: transition))" == message)
        }
    }
}
