import Foundation
import Testing

/// Runs a reducer under a test's control, exhaustively: each ``send(_:effects:sourceLocation:_:)`` states how
/// the state changes and every effect the action produces, in order, and any difference fails the test. Time
/// moves only when the test calls ``advance(by:)``: nothing sleeps, polls or waits for a screen to go quiet.
///
/// Effects that only word what happened (a runtime's `--trace` lines) can be left out of every comparison with
/// `leavingOut`, so a store test pins behaviour and a sentence changed in a log breaks only the test that pins it.
public final class TestStore<State: Equatable, Action, Effect: Equatable> {
    /// The state after the last action.
    public private(set) var state: State
    /// The time the next action is stamped with.
    public private(set) var now: Date
    private let reducer: (inout State, Action, Date) -> [Effect]
    private let leftOut: (Effect) -> Bool

    /// A store holding `state` at `now`, changed only by `reducer`. The effects `leavingOut` picks (by default
    /// none) are dropped before every comparison, and from what ``send(_:effects:sourceLocation:_:)`` returns.
    public init(
        _ state: State, at now: Date, leavingOut: @escaping (Effect) -> Bool = { _ in false },
        reducer: @escaping (inout State, Action, Date) -> [Effect]
    ) {
        (self.state, self.now, self.reducer, leftOut) = (state, now, reducer, leavingOut)
    }

    /// Sends `action`; `update` turns the old state into the expected one, and `effects` lists what the
    /// reducer must ask for, no more and no less (besides the effects the store leaves out).
    @discardableResult
    public func send(
        _ action: Action, effects expected: [Effect], sourceLocation: SourceLocation = #_sourceLocation,
        _ update: (inout State) -> Void = { _ in }
    ) -> [Effect] {
        var expectedState = state
        update(&expectedState)
        let effects = reducer(&state, action, now).filter { !leftOut($0) }
        if state != expectedState {
            let message = "state after \(action) differs:\n\(Self.difference(expectedState, state))"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
        if effects != expected {
            let missing = expected.filter { !effects.contains($0) }
            let unexpected = effects.filter { !expected.contains($0) }
            var message = "effects of \(action) differ\n  expected: \(expected)\n  actual:   \(effects)"
            if !missing.isEmpty { message += "\n  missing: \(missing)" }
            if !unexpected.isEmpty { message += "\n  not expected: \(unexpected)" }
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
        return effects
    }

    /// Moves the store's clock on; nothing happens until the test sends the action the time is for.
    public func advance(by duration: Duration) {
        now = now.addingTimeInterval(
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    /// The lines of two states' descriptions that differ, expected first.
    private static func difference(_ expected: State, _ actual: State) -> String {
        var expectedText = ""
        var actualText = ""
        dump(expected, to: &expectedText)
        dump(actual, to: &actualText)
        let (one, other) = (expectedText.split(separator: "\n"), actualText.split(separator: "\n"))
        var lines: [String] = []
        for index in 0..<max(one.count, other.count) {
            let left = index < one.count ? String(one[index]) : ""
            let right = index < other.count ? String(other[index]) : ""
            if left != right {
                lines.append(
                    "  − \(left.trimmingCharacters(in: .whitespaces))\n  + \(right.trimmingCharacters(in: .whitespaces))"
                )
            }
        }
        return lines.prefix(12).joined(separator: "\n")
    }
}
