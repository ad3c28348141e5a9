import Foundation

/// How the Location squad writes distances and times for people.
enum LocationFormat {
    /// "850 m", "1.3 km"; imperial: "0.5 mi", "2.1 mi" (integer arithmetic, rounded to one decimal).
    static func distance(meters: Int, imperial: Bool) -> String {
        if imperial {
            let tenthsOfMiles = (meters * 10 + 804) / 1609
            return "\(tenthsOfMiles / 10).\(tenthsOfMiles % 10) mi"
        }
        if meters < 1000 { return "\(meters) m" }
        let tenths = (meters + 50) / 100
        return "\(tenths / 10).\(tenths % 10) km"
    }

    /// "just now", "40 s ago", "3 min ago", "2 h ago".
    static func age(seconds: Int) -> String {
        switch seconds {
        case ..<5: "just now"
        case ..<60: "\(seconds) s ago"
        case ..<3600: "\(seconds / 60) min ago"
        default: "\(seconds / 3600) h ago"
        }
    }

    /// "14:05" in `zone`, 24-hour as in the Gulf and most of Europe. The zone's offset at that instant (daylight
    /// saving included) is all a wall-clock time needs; a Calendar would cost more than the whole card.
    static func clockTime(_ date: Date, in zone: TimeZone) -> String {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)
        let minuteOfDay = ((local % 86_400 + 86_400) % 86_400) / 60
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return twoDigits(minuteOfDay / 60) + ":" + twoDigits(minuteOfDay % 60)
    }
}
