import Core
import CoreTesting
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

    /// What a user of the machine sees: a retry while info is shown is refused and reported, and the card stays.
    @Test func anIllegalCallOnARunningContainerIsReportedAndChangesNothing() async {
        let harness = ComponentHarness(
            Greeting(), ids: ["user": "1"], answers: ["users/1/greeting.json": .json(#"{"name": "Ada"}"#)])
        await harness.load()
        await harness.retry()
        #expect(harness.updates.contains(.diagnostic("greeting: illegal transition 'retry' from 'info'")))
        #expect(harness.phases == [.loading, .info])
        #expect(harness.container.current.info?.name == "Ada")
    }
}
