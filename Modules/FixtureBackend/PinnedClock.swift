import Core
import Foundation

/// A clock that starts at a given time (`COURIER_NOW`, for reproducible screens) and runs from there, so a
/// live order's timeline still moves.
public struct PinnedClock: CourierClock {
    let pinned: Date
    let started = ContinuousClock.now

    /// A clock whose "now" is `pinned` at creation.
    public init(pinned: Date) { self.pinned = pinned }

    /// The instant a person wrote (`COURIER_NOW`): ISO 8601 with an offset, with or without fractional seconds.
    public static func instant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: text)
    }

    /// `pinned` plus the time run since.
    public func now() -> Date { pinned.addingTimeInterval((ContinuousClock.now - started).seconds) }
    /// Sleeps in real time, as the system clock does.
    public func sleep(for duration: Duration) async throws { try await SystemClock().sleep(for: duration) }
    /// Schedules in real time, as the system clock does.
    public func schedule(after duration: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        SystemClock().schedule(after: duration, action)
    }
}
