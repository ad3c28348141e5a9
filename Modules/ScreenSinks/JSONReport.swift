import Core
import Foundation
import JSON
import ScreenRuntime

/// One `--format json` object (README), written by hand so component info stays byte for byte what its
/// encoder wrote (never re-printed through a Double), DEL and C1 controls aside (escaped, as every string here). Keys sorted. Under `--watch` each line also carries
/// `seq` and `time`; `includingTimes: false` leaves out what changes on every run, to compare two screens.
public struct JSONReport: Sendable {
    let subject: ScreenSubject
    let frame: ScreenFrame
    var sequence: Int?
    var time: Date?
    var includingTimes = true

    /// A report of `frame`; `sequence` and `time` are the NDJSON line's `seq` and `time`.
    public init(
        subject: ScreenSubject, frame: ScreenFrame, sequence: Int? = nil, time: Date? = nil,
        includingTimes: Bool = true
    ) {
        (self.subject, self.frame, self.sequence, self.time, self.includingTimes) =
            (subject, frame, sequence, time, includingTimes)
    }

    /// The object, keys sorted, info bytes as the squad encoded them.
    public var text: String {
        let cards = frame.cards.map { card in
            JSONReport.object([
                ("elapsed_ms", includingTimes ? card.settledMs.map(String.init) ?? "null" : "null"),
                ("hidden", card.visible ? "false" : "true"),
                ("id", JSONValue.string(card.id.rawValue).text),
                ("info", card.info.map { JSONValue.escapingControls($0) } ?? "null"),
                ("module", JSONValue.string(card.module).text),
                ("reason", card.reason.map { JSONValue.string($0).text } ?? "null"),
                ("stale_since", card.staleSince.map { JSONValue.string(JSONReport.iso($0)).text } ?? "null"),
                ("state", JSONValue.string(card.phase.rawValue).text),
            ])
        }
        var fields: [(String, String)] = [
            ("components", "[" + cards.joined(separator: ",") + "]"),
            ("elapsed_ms", includingTimes ? String(frame.elapsedMs) : "null"),
            ("screen", JSONValue.string(subject.screen).text),
        ]
        fields += subject.inputs.map { ($0.name, JSONValue.string($0.value).text) }
        if let failure = frame.failure { fields.append(("failure", JSONValue.string(failure).text)) }
        if let sequence { fields.append(("seq", String(sequence))) }
        let status = frame.failure != nil ? "failed" : frame.degraded ? "degraded" : "complete"
        fields.append(("status", JSONValue.string(status).text))
        if let time { fields.append(("time", JSONValue.string(JSONReport.iso(time)).text)) }
        fields += ActionReport(frame.action).map { $0.jsonFields } ?? []
        return JSONReport.object(fields.sorted { $0.0 < $1.0 })
    }

    /// ISO 8601 in UTC, as every time in the report is written.
    public static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    /// `{"a":1,"b":2}` from fields already in key order, each value already JSON.
    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { JSONValue.string($0.0).text + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
