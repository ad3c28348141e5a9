import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// A card that shows a fixed line.
private struct NoteCard: Component {
    static let id: ComponentID = "note"
    func load(_ context: ComponentContext) async throws -> String { "hello" }
    func card(for state: ComponentState<String>, context: ComponentContext) -> Block? {
        state.info.map { Block(title: "Note", rows: [Row($0)]) }
    }
}

/// A critical card nobody can show is a failed screen, not a complete one with a card quietly missing.
@Suite struct MissingCriticalCardTests {
    func final(_ entries: [ScreenEntry]) async throws -> (ScreenFrame, [String]) {
        let clock = VirtualClock()
        var registry = ComponentRegistry()
        try registry.register(ComponentRegistration(module: "Test", endpoint: "notes") { NoteCard() })
        let said = Locked([String]())
        var settings = ScreenSettings(ids: [:])
        settings.actions = [ActionSpec(id: "pay")]
        settings.perform = settings.actions.first
        let runtime = ScreenRuntime(
            entries: entries, registry: registry, backend: CannedBackend([:], clock: clock), clock: clock,
            settings: settings, report: RuntimeReport(diagnostic: { line in said.withLock { $0.append(line) } }))
        let frame = try #require(await clock.drive(within: .seconds(10)) { await runtime.run { _, _ in } })
        return (frame, said.withLock { $0 })
    }

    @Test func anUnknownCriticalIdFailsTheScreenAndNothingIsDone() async throws {
        let (frame, said) = try await final([
            ScreenEntry(id: NoteCard.id), ScreenEntry(id: "ghost", critical: true),
        ])
        #expect(frame.failure == "ghost: a critical card no module registers")
        #expect(frame.cards.map(\.id) == [NoteCard.id], "the card that can be shown is still there")
        #expect(said.contains { $0.contains("skipping 'ghost'") })
        guard case .failed(let action, let reason, _)? = frame.action else {
            Issue.record("the action went ahead: \(String(describing: frame.action))")
            return
        }
        #expect(action == "pay" && reason.contains("the screen failed (ghost: a critical card no module registers)"))
    }

    @Test func anUnknownIdThatIsNotCriticalIsOnlySkipped() async throws {
        let (frame, _) = try await final([ScreenEntry(id: NoteCard.id), ScreenEntry(id: "ghost")])
        #expect(frame.failure == nil)
    }
}
