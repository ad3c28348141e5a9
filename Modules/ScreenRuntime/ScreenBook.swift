import Core
import Foundation

/// What the runtime knows about every card, kept in one place: the card frames (visibility included), the
/// last info card of each (for stale display), refresh requests, stale deadlines and whether the screen is
/// finished. Pure: every method is handed the time, so tests need no clock.
struct ScreenBook: Sendable {
    private(set) var cards: [CardFrame]
    /// Per card: what it drew while showing info, when that info arrived, and since when refreshes fail.
    private var lastInfo: [Block?]
    private var freshAt: [Date?]
    private var failingSince: [Date?]
    private var drawn: [Block?]
    /// Per card: the info (JSON) of its last info card, shown again while it is stale.
    private var lastInfoData: [Data?]
    private var due: [Int: Date] = [:]
    /// Per card: how many refreshes it has asked for, so an action can tell which cards asked because of it.
    private(set) var refreshAsks: [Int]
    private(set) var finished = false
    let started: Date
    let staleLimit: Duration

    init(cards: [CardFrame], started: Date, staleLimit: Duration) {
        self.cards = cards
        lastInfo = cards.map { _ in nil }
        freshAt = cards.map { _ in nil }
        failingSince = cards.map { _ in nil }
        drawn = cards.map(\.block)
        lastInfoData = cards.map { _ in nil }
        refreshAsks = cards.map { _ in 0 }
        self.started = started
        self.staleLimit = staleLimit
    }

    func elapsedMs(_ now: Date) -> Int { Int((now.timeIntervalSince(started) * 1000).rounded(.down)) }

    func frame(_ now: Date) -> ScreenFrame { ScreenFrame(cards: cards, elapsedMs: elapsedMs(now), finished: finished) }

    /// Applies one update from card `index`; returns what the trace should say about it (nil: nothing).
    mutating func apply(_ update: SlotUpdate, from index: Int, at now: Date) -> String? {
        let id = cards[index].id
        switch update {
        case .transition(let from, let to):
            cards[index].phase = to
            if to != .loading { cards[index].settledMs = elapsedMs(now) }
            if to == .info { freshAt[index] = now }
            if to != .failed { cards[index].reason = nil }
            return "\(id): \(from?.rawValue ?? "start") → \(to.rawValue)"
        case .drew(let block):
            drawn[index] = block
            if cards[index].phase == .info { lastInfo[index] = block }
            if cards[index].staleSince == nil { cards[index].block = block }
            return nil
        case .event(.hide(let failure)):
            cards[index].reason = failure.reason
            if lastInfo[index] != nil, failure.transient, staleLimit > .zero {
                failingSince[index] = failingSince[index] ?? now
                if now.timeIntervalSince(failingSince[index]!) <= staleLimit.seconds {
                    cards[index].staleSince = freshAt[index]
                    cards[index].block = lastInfo[index]
                    cards[index].visible = true
                    return
                        "\(id): stale, keeping the card from \(freshAt[index].map(Self.iso) ?? "?") (\(failure.reason))"
                }
            }
            hide(index)
            return "\(id): hide (\(failure.reason))"
        case .event(.show):
            cards[index].visible = true
            cards[index].staleSince = nil
            cards[index].block = drawn[index]
            failingSince[index] = nil
            return "\(id): show"
        case .event(.refresh(let delay)):
            let when = now.addingTimeInterval(delay.seconds)
            due[index] = min(due[index] ?? when, when)
            refreshAsks[index] += 1
            return "\(id): asks for a refresh in \(delay.seconds)s"
        case .event(.finished):
            finished = true
            return "\(id): finished"
        case .dropped(let generation): return "\(id): dropped a stale answer (load #\(generation))"
        case .event(.domain), .event(.analytics), .diagnostic: return nil
        }
    }

    private mutating func hide(_ index: Int) {
        cards[index].visible = false
        cards[index].staleSince = nil
        cards[index].block = drawn[index]
    }

    /// Hides the stale cards whose failure has lasted longer than the limit by `now`; returns their ids.
    mutating func expireStale(at now: Date) -> [ComponentID] {
        var expired: [ComponentID] = []
        for index in cards.indices where cards[index].staleSince != nil {
            guard let since = failingSince[index], now.timeIntervalSince(since) > staleLimit.seconds else { continue }
            hide(index)
            expired.append(cards[index].id)
        }
        return expired
    }

    /// When the next stale card should be hidden, if one is stale.
    var nextStaleExpiry: Date? {
        cards.indices.compactMap { index in
            cards[index].staleSince == nil ? nil : failingSince[index]?.addingTimeInterval(staleLimit.seconds + 0.001)
        }.min()
    }

    /// The cards due by `now`, removed from the schedule, and the next due time after them.
    mutating func takeDue(at now: Date) -> (due: [Int], next: Date?) {
        let ready = due.filter { $0.value <= now }.map(\.key).sorted()
        for index in ready { due[index] = nil }
        return (ready, due.values.min())
    }

    /// Takes each card's current info (JSON, nil without info) into the frames: a stale card keeps the info of
    /// the card it still shows.
    mutating func note(_ infos: [Data?]) {
        for (index, info) in infos.enumerated() {
            if let info { lastInfoData[index] = info }
            cards[index].info = cards[index].staleSince != nil ? lastInfoData[index] : info
        }
    }

    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
