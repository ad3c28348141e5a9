import Core
import Foundation
import JSON

/// The screen as data at one moment: every card's snapshot with its module and when it settled.
struct ScreenSnapshot: Sendable {
    struct Card: Sendable {
        let module: String
        let snapshot: ComponentSnapshot
        let settledMs: Int?
    }
    let order: String
    let elapsedMs: Int
    let cards: [Card]

    var degraded: Bool { cards.contains { $0.snapshot.phase == .failed } }

    /// The stable `--format json` shape (README): keys sorted; each card's `info` is the component's own JSON,
    /// spliced in as encoded (never re-printed through a Double). Under `--watch` each line also carries
    /// `seq` and `time`; `includingTimes: false` leaves out what changes on every run, to compare two screens.
    func report(sequence: Int? = nil, time: Date? = nil, includingTimes: Bool = true) -> JSONReport {
        JSONReport(snapshot: self, sequence: sequence, time: time, includingTimes: includingTimes)
    }
}

/// One `--format json` object, written by hand so component info stays byte for byte what its encoder wrote.
struct JSONReport {
    let snapshot: ScreenSnapshot
    let sequence: Int?
    let time: Date?
    let includingTimes: Bool

    var text: String {
        let cards = snapshot.cards.map { card in
            let state = card.snapshot
            let fields: [(String, String)] = [
                ("elapsed_ms", includingTimes ? card.settledMs.map(String.init) ?? "null" : "null"),
                ("hidden", state.phase == .failed ? "true" : "false"),
                ("id", JSONValue.string(state.id.rawValue).text),
                ("info", state.info.map { String(decoding: $0, as: UTF8.self) } ?? "null"),
                ("module", JSONValue.string(card.module).text),
                ("reason", state.reason.map { JSONValue.string($0).text } ?? "null"),
                ("state", JSONValue.string(state.phase.rawValue).text),
            ]
            return JSONReport.object(fields)
        }
        var fields: [(String, String)] = [
            ("components", "[" + cards.joined(separator: ",") + "]"),
            ("elapsed_ms", includingTimes ? String(snapshot.elapsedMs) : "null"),
            ("order", JSONValue.string(snapshot.order).text),
        ]
        if let sequence { fields.append(("seq", String(sequence))) }
        fields.append(("status", JSONValue.string(snapshot.degraded ? "degraded" : "complete").text))
        if let time { fields.append(("time", JSONValue.string(ISO8601DateFormatter().string(from: time)).text)) }
        return JSONReport.object(fields)
    }

    /// `{"a":1,"b":2}` from fields already in key order, each value already JSON.
    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { JSONValue.string($0.0).text + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
