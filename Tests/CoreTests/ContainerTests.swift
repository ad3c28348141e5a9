import Core
import CoreTesting
import Foundation
import Testing

@Suite struct ContainerTests {
    @Test func loadingThenInfoDrawsSkeletonThenCard() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], answers: greetingAnswers)
        await harness.load()
        harness.expectPhases([.loading, .info])
        #expect(harness.blocks.first??.isSkeleton == true)
        harness.expectCard(
            """
            ╭─ Greeting ─────────────╮
            │ Hello, Ada             │
            ╰────────────────────────╯
            """, width: 26)
        harness.expectEvents([])
    }

    @Test func failureHidesWithTheEndpointInTheReason() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], answers: [:])
        await harness.load()
        harness.expectPhases([.loading, .failed])
        harness.expectHidden(because: "users/1/greeting.json: not found (404)")
        #expect(harness.card() == "(nothing)")
    }

    @Test func malformedPayloadNamesTheMissingKey() async throws {
        let harness = ComponentHarness(
            Greeting(), ids: ["user": "1"], answers: ["users/1/greeting.json": .json(#"{"nom": "Ada"}"#)])
        await harness.load()
        harness.expectHidden(because: "missing key 'name'")
    }

    @Test func aHangingEndpointFailsAtTheDeadline() async throws {
        let harness = ComponentHarness(
            Greeting(), ids: ["user": "1"], answers: ["users/1/greeting.json": .hang], timeout: .seconds(3))
        await harness.load()
        harness.expectHidden(because: "no answer within 3s")
        #expect(harness.clock.now().timeIntervalSince(VirtualClock().now()) == 3)
    }

    @Test func aDelayedAnswerWithinTheDeadlineArrives() async throws {
        let harness = ComponentHarness(
            Greeting(), ids: ["user": "1"], answers: ["users/1/greeting.json": .delayed(.seconds(2), #"{"name":"Bo"}"#)]
        )
        await harness.load()
        harness.expectPhases([.loading, .info])
        #expect(harness.container.current.info?.name == "Bo")
    }

    @Test func aStaleAnswerIsDroppedNeverApplied() async throws {
        let harness = ComponentHarness(
            Greeting(), ids: ["user": "1"],
            answers: ["users/1/greeting.json": .delayed(.seconds(1), #"{"name":"Old"}"#)])
        let load = harness.clock.start { await harness.container.load() }
        await harness.clock.settle()
        #expect(harness.backend.sleepingFetches == 1)
        harness.container.cancel()
        harness.clock.advance(by: .seconds(1))
        await load.value
        harness.expectPhases([.loading])
        #expect(harness.updates.contains(.dropped(generation: 1)))
    }

    @Test func refreshWhileLoadingIsReportedNotApplied() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], answers: greetingAnswers)
        await harness.refresh()
        #expect(harness.updates.contains(.diagnostic("greeting: illegal transition 'refresh' from 'loading'")))
        harness.expectPhases([.loading])
    }

    @Test func refreshKeepsTheCardUntilTheNewAnswerArrives() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], answers: greetingAnswers)
        await harness.load()
        await harness.refresh()
        harness.expectPhases([.loading, .info, .loading, .info])
        #expect(harness.blocks.map { $0?.isSkeleton } == [true, false, false], "no skeleton flash on refresh")
        #expect(harness.backend.requests.count == 2)
    }

    @Test func retryAfterFailureLoadsAgain() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], answers: [:])
        await harness.load()
        await harness.retry()
        harness.expectPhases([.loading, .failed, .loading, .failed])
        #expect(harness.backend.requests.count == 2)
    }

    @Test func eventsBeforeInfoApplyWhenInfoArrivesAndAfterwardInPlace() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], answers: greetingAnswers)
        _ = harness.container.receive(DomainEvent("order.status", "delivered"))
        await harness.load()
        #expect(harness.container.current.info?.delivered == true)
        _ = harness.container.receive(DomainEvent("order.status", "preparing"))
        #expect(harness.container.current.info?.delivered == false)
        harness.expectPhases([.loading, .info, .info])
    }

    @Test func inlinePayloadIsUsedInsteadOfFetching() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], payload: Data(#"{"name":"Inline"}"#.utf8))
        await harness.load()
        #expect(harness.container.current.info?.name == "Inline")
        #expect(harness.backend.requests.isEmpty)
    }

}

/// A card that can fail, recover, ask for refreshes and finish: the kernel's output interface over time.
private struct Parcel: Component, SelfRefreshing, Finishing, RefreshingOnEvents {
    struct Info: Sendable, Equatable, Codable { let step: String }
    static let id: ComponentID = "parcel"
    static let refreshingEvents: Set<EventName> = ["coupon.applied"]

    func load(_ context: ComponentContext) async throws -> Info {
        try JSONDecoder().decode(Info.self, from: try await context.backend.fetch(try Endpoint("parcel.json")))
    }

    func card(for state: ComponentState<Info>, context: ComponentContext) -> Block? {
        state.info.map { Block(title: "Parcel", rows: [Row($0.step)]) } ?? .skeleton(title: "Parcel")
    }

    func refreshInterval(for info: Info) -> Duration? { info.step == "moving" ? .seconds(3) : nil }
    func isFinished(_ info: Info) -> Bool { info.step == "done" }
}

/// Answers from a script that tests change between loads.
private final class Script: Backend {
    let answers = Locked<[String]>([])
    func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        guard let next = answers.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
            throw .httpStatus(503, path: endpoint.path)
        }
        return Data(next.utf8)
    }
}

@Suite struct LiveOutputTests {
    private func run(_ answers: [String], _ steps: (ComponentContainer<Parcel>) async -> Void) async -> [ComponentEvent]
    {
        let script = Script()
        script.answers.withLock { $0 = answers }
        let events = Locked<[ComponentEvent]>([])
        let slot = Slot(id: "parcel") { if case .event(let event) = $0 { events.withLock { $0.append(event) } } }
        let container = ComponentContainer(Parcel(), slot: slot, context: ComponentContext(backend: script))
        await steps(container)
        return events.withLock { $0 }
    }

    @Test func aHiddenCardThatGetsInfoAgainIsShownAgain() async {
        let script = Script()
        let events = Locked<[ComponentEvent]>([])
        let slot = Slot(id: "parcel") { if case .event(let event) = $0 { events.withLock { $0.append(event) } } }
        let container = ComponentContainer(Parcel(), slot: slot, context: ComponentContext(backend: script))
        await container.load()
        script.answers.withLock { $0 = [#"{"step": "packed"}"#] }
        await container.retry()
        #expect(events.withLock { $0 } == [.hide(Failure("parcel.json: server answered HTTP 503")), .show])
    }

    @Test func aMovingParcelAsksToBeLookedAtAgainAndADoneOneFinishesOnce() async {
        let events = await run([#"{"step": "moving"}"#, #"{"step": "done"}"#, #"{"step": "done"}"#]) { container in
            await container.load()
            await container.refresh()
            await container.refresh()
        }
        #expect(events == [.refresh(after: .seconds(3)), .finished])
    }

    @Test func anotherCardsEventMakesItAskForARefresh() async {
        let events = await run([#"{"step": "packed"}"#]) { container in
            await container.load()
            #expect(container.receive(DomainEvent("coupon.applied", "SAVE10")).isEmpty)
            #expect(container.receive(DomainEvent("other", "x")).isEmpty)
        }
        #expect(events == [.refresh(after: .zero)])
    }
}
