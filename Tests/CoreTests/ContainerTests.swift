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
        let load = Task { await harness.container.load() }
        while harness.backend.sleepingFetches == 0 { await Task.yield() }
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

    @Test func snapshotCarriesInfoAsJSON() async throws {
        let harness = ComponentHarness(Greeting(), ids: ["user": "1"], answers: greetingAnswers)
        await harness.load()
        let snapshot = harness.container.snapshot
        #expect(snapshot.phase == .info)
        #expect(snapshot.info.map { String(decoding: $0, as: UTF8.self) } == #"{"delivered":false,"name":"Ada"}"#)
        let withoutInfo = harness.container.snapshot(includingInfo: false)
        #expect(withoutInfo.info == nil)
        #expect(withoutInfo.phase == .info && withoutInfo.block == snapshot.block)
    }
}
