import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// What an action tells a person is handed out once: the first frame after it carries it, no later frame does, and
/// the state keeps nothing told past the next action (issue 67: `told` grew for the whole run, in every frame).
@Suite struct ToldOnceTests {
    @Test func aNoticeIsInOneFrameAndTheStateForgetsItAtTheNextAction() async throws {
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        var registry = ComponentRegistry()
        try registry.register(SyntheticCard.registration)
        var settings = ScreenSettings(ids: ["card": "1"])
        // Nobody on this screen answers for the action: asking it tells a dialog saying so ("cannot tell").
        (settings.watch, settings.actions) = (true, [ActionSpec(id: "rate", key: "R", label: "Rate")])
        let screen = ScreenHarness(
            entries: [ScreenEntry(id: SyntheticCard.id)], registry: registry,
            backend: LatencyBackend(latencies: [], clock: clock), clock: clock, settings: settings)
        screen.start()
        await screen.run(for: .seconds(1))
        screen.runtime.send(.act("rate"))
        await screen.run(for: .seconds(1))
        screen.runtime.reloadNow()
        await screen.run(for: .seconds(1))
        let frames = screen.frames
        let telling = frames.filter { !$0.told.isEmpty }
        #expect(telling.count == 1, "\(frames.map(\.told))")
        guard case .dialog(let id, _, _, let question, _)? = telling.first?.told.first else {
            Issue.record("no dialog was told: \(frames.map(\.told))")
            return
        }
        #expect(id == "rate" && question == nil)
        #expect(frames.last?.told.isEmpty == true, "the reload's frames carry nothing told before")
        #expect(screen.runtime.currentFrame().told.isEmpty)
        _ = await screen.stop()
    }
}
