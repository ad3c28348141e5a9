import Core
import CoreTesting
import Foundation
import Testing

/// The container hands out what a step reports only after its lock is released, so a host's sink may call
/// straight back in; `cancel()` stops the load itself; failures say whether the way to the data failed.
@Suite struct OutboxTests {
    /// A slot whose sink, on every drawing, reads the container and sends it an event, as a host reacting to a
    /// card might: with the sink called under the kernel's lock, `receive` never returned. The calls run on a
    /// thread of their own and are waited for with a timeout, so a deadlock fails the test instead of hanging
    /// it, whatever else the test process is doing with the task pool.
    @Test func aSinkThatCallsBackIntoTheContainerDoesNotDeadlock() async throws {
        let backend = CannedBackend(["users/1/greeting.json": .json(#"{"name":"Ada"}"#)], clock: VirtualClock())
        let box = Locked<ComponentContainer<Greeting>?>(nil)
        let seen = Locked<[Phase]>([])
        let slot = Slot(id: "greeting") { update in
            guard case .drew = update, let container = box.withLock({ $0 }) else { return }
            seen.withLock { $0.append(container.current.phase) }
            _ = container.receive(DomainEvent("order.status", "delivered"))
        }
        let container = ComponentContainer(
            Greeting(), slot: slot, context: ComponentContext(ids: ["user": "1"], backend: backend))
        await container.load()
        #expect(container.current.info == Greeting.Info(name: "Ada"))
        box.withLock { $0 = container }
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // The event changes the card: it is drawn again, and the sink calls back in from inside.
            _ = container.receive(DomainEvent("order.status", "delivered"))
            returned.signal()
        }
        #expect(returned.wait(timeout: .now() + 60) == .success, "receive() returned")
        #expect(container.current.info == Greeting.Info(name: "Ada", delivered: true), "the event was applied")
        #expect(seen.withLock { $0 } == [.info], "the sink read the container from inside the drawing")
    }

    /// `cancel()` cancels the load task: a fetch that would wait an hour sees the cancellation at once, and its
    /// (absent) answer is dropped.
    final class Flag: Sendable {
        let raised = Locked(false)
    }

    @Test func cancelStopsTheLoadItself() async throws {
        let cancelled = Flag()
        struct Waiting: Component {
            struct Info: Sendable, Equatable, Encodable {}
            static let id: ComponentID = "waiting"
            let cancelled: Flag
            func load(_ context: ComponentContext) async throws -> Info {
                do { try await context.clock.sleep(for: .seconds(3600)) } catch {
                    cancelled.raised.withLock { $0 = true }
                    throw error
                }
                return Info()
            }
            func card(for state: ComponentState<Info>, context: ComponentContext) -> Block? { nil }
        }
        let updates = Locked<[SlotUpdate]>([])
        let clock = VirtualClock()
        let container = ComponentContainer(
            Waiting(cancelled: cancelled),
            slot: Slot(id: "waiting") { update in updates.withLock { $0.append(update) } },
            context: ComponentContext(
                backend: CannedBackend([:], clock: clock), clock: clock, timeout: .seconds(7200)))
        let load = clock.start { await container.load() }
        await clock.settle()
        #expect(clock.sleeperCount == 2, "the load and its deadline wait on the clock")
        container.cancel()
        await load.value
        #expect(cancelled.raised.withLock { $0 }, "the load saw the cancellation")
        #expect(updates.withLock { $0 }.contains(.dropped(generation: 1)))
        #expect(container.current.phase == .loading)
    }

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
