import Core
import CoreTesting
import FixtureBackend
import Foundation
import ScreenRuntime
import Testing

@testable import OrderTrackingKit

/// The host's screen behaviours in-process, through the screen runtime on a virtual clock: the demo orders'
/// timelines, rounds, reloads, event cycles and stale cards, each in milliseconds of wall time.
@Suite struct ScreenRuntimeTests {
    /// A backend that counts fetches per path and can be told to fail as a dropped connection would.
    final class ProbeBackend: Backend {
        let inner: any Backend
        let counts = Locked<[String: Int]>([:])
        let down = Locked(false)
        init(_ inner: any Backend) { self.inner = inner }
        func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
            counts.withLock { $0[endpoint.path, default: 0] += 1 }
            if down.withLock({ $0 }) { throw .transport("connection refused", path: endpoint.path) }
            return try await inner.fetch(endpoint)
        }
        func count(_ path: String) -> Int { counts.withLock { $0[path] ?? 0 } }
    }

    /// The demo order's screen from the embedded fixtures, with the squads' cards the static registry holds.
    func harness(
        _ order: String, watch: Bool = true, every: Duration = .seconds(10), staleLimit: Duration = .seconds(60)
    ) throws -> (ScreenHarness, ProbeBackend) {
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        let backend = ProbeBackend(HostEnvironment.embeddedBackend(clock: clock))
        var registry = ComponentRegistry()
        for line in HostRegistry.lines { try registry.register(line) }
        let file = URL(fileURLWithPath: HostEnvironment.embeddedFixtures + "/orders/\(order)/screen.json")
        let entries = try ScreenEntry.layout(from: Data(contentsOf: file), defaultOrder: [])
            .filter {
                (try? registry.registration(for: $0.id)) != nil
            }
        var settings = ScreenSettings(ids: ["order": order])
        (settings.watch, settings.every, settings.staleLimit, settings.includeInfo) = (watch, every, staleLimit, true)
        let harness = ScreenHarness(
            entries: entries, registry: registry, backend: backend, clock: clock, settings: settings)
        return (harness, backend)
    }

    func card(_ frame: ScreenFrame, _ id: ComponentID) -> CardFrame? { frame.cards.first { $0.id == id } }

    func field(_ card: CardFrame?, _ key: String) -> String? {
        guard let info = card?.info, let object = try? JSONSerialization.jsonObject(with: info) as? [String: Any]
        else { return nil }
        return object[key] as? String
    }

    @Test func theLiveOrderRunsItsWholeTimelineAndTheOutageHidesAndRestoresThePayment() async throws {
        let (screen, _) = try harness("4242", staleLimit: .zero)
        screen.start()
        let final = try #require(await screen.finish())
        var statuses: [String] = []
        for frame in screen.settled {
            let status = field(card(frame, "order"), "status") ?? "?"
            if statuses.last != status { statuses.append(status) }
        }
        #expect(statuses == ["preparing", "on_the_way", "delivered"])
        let paymentShown = screen.settled.map { card($0, "payment")?.visible ?? false }
        let hidden = try #require(paymentShown.firstIndex(of: false), "the payment outage hides the card")
        #expect(paymentShown[hidden...].contains(true), "and the card comes back")
        #expect(final.finished)
        #expect(field(card(final, "payment"), "status") == "paid", "cash is collected at the door")
        #expect(!final.degraded)
    }

    @Test func aPaymentOutageKeepsTheLastPaymentOnScreenMarkedStale() async throws {
        let (screen, _) = try harness("4242")
        screen.start()
        let final = try #require(await screen.finish())
        let outage = screen.settled.filter { card($0, "payment")?.staleSince != nil }
        #expect(!outage.isEmpty, "a 503 on a shown card keeps it, marked")
        for frame in outage {
            let payment = try #require(card(frame, "payment"))
            #expect(payment.visible && payment.block != nil && payment.phase != .info)
            #expect(field(payment, "status") == "pending", "JSON keeps the info the card still shows")
            #expect(frame.degraded, "a stale card still makes the screen degraded")
        }
        #expect(screen.settled.allSatisfy { card($0, "payment")?.visible == true }, "never hidden")
        #expect(card(final, "payment")?.staleSince == nil, "fresh again once the backend answers")
        let told = screen.analytics.filter { $0.event.name == "payment_card_stale" }
        #expect(
            told.count == 1, "the Payments squad's Tracking hears of it once: \(screen.analytics.map(\.event.name))")
    }

    @Test func staleCardsAreHiddenOnceTheFailureOutlastsTheLimit() async throws {
        let (screen, backend) = try harness("1234", every: .seconds(5), staleLimit: .seconds(12))
        screen.start()
        await screen.run(for: .seconds(1))
        let fresh = try #require(screen.settled.last)
        #expect(fresh.cards.allSatisfy { $0.visible && $0.staleSince == nil })
        let freshAt = screen.clock.now()
        backend.down.withLock { $0 = true }
        await screen.run(for: .seconds(6))
        let stale = try #require(screen.settled.last)
        #expect(stale.cards.allSatisfy { $0.visible && $0.staleSince != nil }, "every card kept, marked")
        #expect(stale.cards.allSatisfy { abs(($0.staleSince ?? .distantPast).timeIntervalSince(freshAt)) < 2 })
        await screen.run(for: .seconds(15))
        let gone = try #require(screen.settled.last)
        #expect(gone.cards.allSatisfy { !$0.visible }, "hidden once the failure lasted longer than 12 s")
        backend.down.withLock { $0 = false }
        await screen.run(for: .seconds(6))
        let back = try #require(screen.settled.last)
        #expect(back.cards.allSatisfy { $0.visible && $0.staleSince == nil }, "fresh again, marks gone")
        _ = await screen.stop()
    }

    @Test func anEventDeliveredToTheScreenReachesItsConsumersAndReloadsThoseThatAsk() async throws {
        let (screen, backend) = try harness("1234")
        screen.start()
        await screen.run(for: .seconds(2))
        let paymentFetches = backend.count("orders/1234/payment.json")
        let reactions = try #require(await screen.deliver(DomainEvent("order.status", text: "delivered")))
        #expect(reactions["eta"] == .updated, "the ETA card says delivered without a fetch")
        #expect(reactions["payment"] == .reloaded, "Payments asks for a look once the order is delivered")
        #expect(reactions["order"] == .unchanged, "the order card publishes the status; it does not consume it")
        await screen.run(for: .seconds(1))
        #expect(backend.count("orders/1234/payment.json") == paymentFetches + 1)
        let ignored = try #require(await screen.deliver(DomainEvent("unregistered.points", text: "5")))
        #expect(ignored.values.allSatisfy { $0 == .unchanged })
        _ = await screen.stop()
    }

    @Test func aBrokenPayloadIsHiddenAtOnceNeverKeptStale() async throws {
        let (screen, _) = try harness("5678", watch: false)
        screen.start()
        let final = try #require(await screen.finish())
        let payment = try #require(card(final, "payment"))
        #expect(!payment.visible && payment.staleSince == nil)
        #expect(payment.reason == "unexpected payload: missing key 'logo'")
        #expect(final.degraded)
    }

    @Test func everyRoundReloadsEveryCardAndReloadNowDoesAtOnce() async throws {
        let (screen, backend) = try harness("1234", every: .seconds(5))
        screen.start()
        await screen.run(for: .seconds(1))
        let first = backend.count("orders/1234/details.json")
        #expect(first == 1)
        await screen.run(for: .seconds(10))
        #expect(backend.count("orders/1234/details.json") == first + 2, "rounds at 5 s and 10 s")
        screen.runtime.reloadNow()
        await screen.run(for: .milliseconds(10))
        #expect(backend.count("orders/1234/details.json") == first + 3, "reload now, without waiting for the round")
        let final = try #require(await screen.stop())
        #expect(!final.finished)
    }

    /// Cards ask for their own next look (the rider every 3 s, the ETA every 5 s): honoured between rounds.
    @Test func refreshRequestsAreHonouredBetweenRounds() async throws {
        let (screen, backend) = try harness("1234", every: .seconds(3600))
        screen.start()
        await screen.run(for: .seconds(1))
        let (rider, eta) = (backend.count("orders/1234/delivery.json"), backend.count("orders/1234/eta.json"))
        await screen.run(for: .seconds(10))
        #expect(backend.count("orders/1234/delivery.json") == rider + 3, "the rider at 3, 6 and 9 s")
        #expect(backend.count("orders/1234/eta.json") == eta + 2, "the ETA at 5 and 10 s")
        _ = await screen.stop()
    }

    @Test func theRefusedEventCycleOfOrder6060IsNamedAndTheScreenStillSettles() async throws {
        let (screen, _) = try harness("6060", watch: false)
        screen.start()
        let final = try #require(await screen.finish())
        #expect(screen.diagnostics.contains { $0.hasPrefix("event cycle refused:") }, "\(screen.diagnostics)")
        #expect(final.cards.count == 4)
    }

    @Test func theFirstFrameIsEverySkeletonBeforeAnythingLoads() async throws {
        let (screen, _) = try harness("9012", watch: false)
        screen.start()
        _ = try #require(await screen.finish())
        let first = try #require(screen.frames.first)
        #expect(first.cards.allSatisfy { $0.block?.isSkeleton == true && $0.visible })
    }

    /// A backend whose every answer takes two seconds of virtual time: loads overlap as a person's keys make them.
    final class SlowBackend: Backend {
        let inner: any Backend
        let clock: VirtualClock
        init(_ inner: any Backend, clock: VirtualClock) { (self.inner, self.clock) = (inner, clock) }
        func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
            try? await clock.sleep(for: .seconds(2))
            return try await inner.fetch(endpoint)
        }
    }

    /// `r` (a round in flight) and then a person's input to a card that is still loading: the card loads again
    /// with the input, never "illegal transition", and the round's answers stay whole.
    @Test func aPersonsReloadDuringARoundIsNeverAnIllegalTransition() async throws {
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        let backend = SlowBackend(
            HostEnvironment.embeddedBackend(clock: clock), clock: clock)
        var registry = ComponentRegistry()
        for line in HostRegistry.lines { try registry.register(line) }
        var settings = ScreenSettings(ids: ["order": "1234"])
        (settings.watch, settings.every) = (true, .seconds(600))
        let screen = ScreenHarness(
            entries: ["order", "payment", "eta"].map { ScreenEntry(id: $0) }, registry: registry, backend: backend,
            clock: clock, settings: settings)
        screen.start()
        await screen.run(for: .seconds(5))
        for _ in 0..<3 {
            screen.runtime.reloadNow()
            await screen.run(for: .milliseconds(500))
            // A person's input during the round: Payments refreshes on it; the clock moves until it has settled.
            let reactions = await screen.deliver(DomainEvent("order.status", text: "preparing"))
            #expect(reactions?["payment"] == .reloaded)
        }
        #expect(screen.diagnostics.filter { $0.contains("illegal") }.isEmpty, "\(screen.diagnostics)")
        let last = try #require(screen.settled.last)
        #expect(last.cards.allSatisfy { $0.visible }, "every card shown after the bursts")
        // A load under way when the run ends still waits for the (virtual) backend: keep the clock moving.
        let stopping = screen.clock.start { await screen.stop() }
        await screen.run(for: .seconds(30))
        _ = await stopping.value
    }
}
