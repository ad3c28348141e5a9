import Core
import Foundation
import Testing

@testable import ScreenRuntime

/// The state's shape is its meaning: a card's phase carries what that phase has, the screen's run is one lifecycle
/// value, and the screen is composed of child states, so neither grows a field for each fix again. Issue 58 found 27
/// and 30 stored properties; issue 67 found six booleans forming a lifecycle no type named, and a `sending` flag
/// beside the progress that says it.
@Suite struct StateShapeTests {
    static let goalForACard = 14
    static let goalForAScreen = 9

    /// The stored properties of `value`, by name, as the runtime holds them (computed properties are not counted).
    static func stored(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }

    @Test func aCardHoldsAtMostFourteenStoredProperties() {
        let card = ScreenReducerTests.card("order")
        let fields = Self.stored(card)
        #expect(fields.count <= Self.goalForACard, "CardState holds \(fields.count): \(fields)")
        #expect(fields.count == 12, "CardState's count changed (\(fields)): update the count here and in the README")
    }

    @Test func aScreenHoldsAtMostNineStoredPropertiesItsRunOneLifecycle() {
        let store = ScreenReducerTests.store()
        let fields = Self.stored(store.state)
        #expect(fields.count <= Self.goalForAScreen, "ScreenState holds \(fields.count): \(fields)")
        #expect(fields.count == 9, "ScreenState's count changed (\(fields)): update the count here and in the README")
        for child in ["config", "action", "lifecycle"] { #expect(fields.contains(child)) }
        // The run's phase is the lifecycle's alone: none of the flags it replaced is stored beside it.
        for flag in ["stopped", "reloadAll", "reloading", "lastLook", "followUp", "delivering"] {
            #expect(!fields.contains(flag), "\(flag) is stored beside the lifecycle")
        }
        // What is open over a live screen, and when it looks at who is signed in, are the live screen's own.
        for terminal in ["console", "session"] { #expect(!fields.contains(terminal)) }
    }

    /// The progress says an action is sending: no flag beside it can say otherwise.
    @Test func anActionsSendIsSaidByItsProgressAlone() {
        let fields = Self.stored(ScreenReducerTests.store().state.action)
        #expect(!fields.contains("sending"), "ActionState holds \(fields)")
        #expect(fields.count == 8, "ActionState's count changed (\(fields)): update the count here and in the README")
    }

    /// Each phase has only what it needs: a waiting card nothing, a hidden one no stale mark, a stale one its info.
    @Test func whatAPhaseDoesNotHaveCannotBeRead() {
        let last = ShownInfo(info: AnyInfo("order"), block: ScreenReducerTests.block("order"), at: .distantPast)
        var card = ScreenReducerTests.card("order")
        #expect(card.visible && card.reason == nil && card.staleSince == nil && card.reported == nil)
        #expect(card.block == ScreenReducerTests.skeleton)
        card.phase = .stale(last, failingSince: .distantFuture, reason: "down", drawn: nil)
        #expect(card.visible && card.staleSince == .distantPast && card.reported == last && card.block == last.block)
        card.phase = .hidden(reason: "down", drawn: nil, last: last, failingSince: nil)
        #expect(!card.visible && card.staleSince == nil && card.reported == nil && card.block == nil)
        #expect(card.reason == "down" && card.info == AnyInfo("order"))
        card.phase = .shown(last)
        card.loading = true  // a refresh: the info stays on screen, but no report gives it until it answers
        #expect(card.visible && card.reported == nil && card.block == last.block && card.machine == .loading)
    }
}
