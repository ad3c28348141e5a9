/// A review's `submitted_at` as an instant: GitHub writes UTC with `Z`, but an export, a proxy or a hand-written
/// file may use any offset or fractions, and text order is not time order (`12:05+02:00` is before `10:06Z`).
struct ReviewTime: Comparable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    let seconds: Int64
    /// Nanoseconds within that second.
    let nanoseconds: Int64

    /// An instant from its parts.
    init(seconds: Int64, nanoseconds: Int64) { (self.seconds, self.nanoseconds) = (seconds, nanoseconds) }

    static func < (lhs: ReviewTime, rhs: ReviewTime) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)` (ISO 8601 / RFC 3339, `t`/`z` and a space accepted);
    /// nil for anything else, including impossible dates such as February 30th.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + width] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += width
            return value
        }
        func expect(_ allowed: [UInt8]) -> Bool {
            guard index < bytes.count, allowed.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect([0x2D]), let month = number(2), expect([0x2D]), let day = number(2),
            expect([0x54, 0x74, 0x20]), let hour = number(2), expect([0x3A]), let minute = number(2), expect([0x3A]),
            let second = number(2), (1...12).contains(month), day >= 1, day <= Self.days(in: month, of: year),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var nanoseconds: Int64 = 0
        if expect([0x2E]) {
            var digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                if digits < 9 { nanoseconds = nanoseconds * 10 + Int64(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 9) { nanoseconds *= 10 }
        }
        var offset = 0
        if expect([0x5A, 0x7A]) {
            offset = 0
        } else if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
            let sign = bytes[index] == 0x2D ? -1 : 1
            index += 1
            guard let hours = number(2), hours < 24 else { return nil }
            _ = expect([0x3A])
            guard let minutes = number(2), minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm); every figure is bounded by the four-digit year.
        let shifted = month <= 2 ? year - 1 : year
        let era = shifted / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
        self.nanoseconds = nanoseconds
    }

    private static func days(in month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
