/// The question a screen asks its terminal about widths, and the reading of the answers: pure bytes, so the
/// exchange is tested against a model terminal without a process (HostIO writes the question and hands the
/// reports it reads back here).
///
/// One write asks three things: whether grapheme clustering (mode 2027) is on, asking for it at once (DECRQM
/// `CSI ? 2027 $ p` reports the mode as it was before the `CSI ? 2027 h` that follows); how many columns each
/// disputed cluster takes (each ``ClusterWidths/Kind/probe`` printed from the line's first column and followed by
/// a cursor position report request, `CSI 6 n`); and device attributes (`CSI c`), which every terminal answers
/// and answers last, so the answers are known to be complete. The probes are erased before anything else is
/// written (`CR`, `CSI K`): the line the cursor is on is as it was.
public enum WidthProbe {
    /// The bytes that ask, written once from the first column of the line the cursor is on.
    public static let question: String =
        "\u{1B}[?2027$p\u{1B}[?2027h"
        + ClusterWidths.Kind.allCases.map { "\r" + $0.probe + "\u{1B}[6n" }.joined() + "\r\u{1B}[K\u{1B}[c"

    /// Turns grapheme clustering on again (after a suspend, or for the next screen of the run).
    public static let clusteringOn = "\u{1B}[?2027h"
    /// Turns grapheme clustering off: written at the end when the question turned it on.
    public static let clusteringOff = "\u{1B}[?2027l"

    /// What the terminal has said so far, report by report (``hear(_:)``).
    public struct Answers: Sendable, Equatable {
        /// The columns the cursor reports gave, in order.
        private var columns: [Int] = []
        /// The mode 2027 report's value: 0 unknown to the terminal, 1 set, 2 reset, 3 permanently set, 4
        /// permanently reset; nil when none came.
        public private(set) var clusteringMode: Int?
        /// Device attributes arrived: nothing more will be said about the question.
        public private(set) var complete = false

        /// Nothing heard yet.
        public init() {}

        /// Takes one control sequence the terminal sent (`ESC [ … final`, or the 8-bit CSI form); true when it
        /// was an answer to the question. Anything else (a key) is left to the caller.
        @discardableResult
        public mutating func hear(_ report: [UInt8]) -> Bool {
            guard !complete, let (body, final) = Self.split(report) else { return false }
            let text = String(decoding: body, as: UTF8.self)
            switch final {
            case UInt8(ascii: "R") where !text.hasPrefix("?") && columns.count < ClusterWidths.Kind.allCases.count:
                let numbers = text.split(separator: ";").compactMap { Int($0) }
                guard numbers.count == 2 else { return false }
                columns.append(numbers[1])
            case UInt8(ascii: "y") where text.hasPrefix("?2027;") && text.hasSuffix("$"):
                clusteringMode = Int(text.dropFirst(6).dropLast())
            case UInt8(ascii: "c") where text.hasPrefix("?"):
                complete = true
            default:
                return false
            }
            return true
        }

        /// Whether the question turned clustering on (the terminal had it off and can have it): it is turned off
        /// again when the run gives the terminal back.
        public var turnedClusteringOn: Bool { clusteringMode == 2 }

        /// The widths the answers say: every probe's columns when the terminal reported a position for each, else
        /// Unicode's (a terminal that said nothing, or not enough to go by).
        public var widths: ClusterWidths {
            let kinds = ClusterWidths.Kind.allCases
            guard columns.count == kinds.count else { return .unicode }
            return ClusterWidths(answers: Dictionary(uniqueKeysWithValues: zip(kinds, columns.map { $0 - 1 })))
        }

        /// The parameters and intermediates of a CSI sequence, and its final byte.
        private static func split(_ report: [UInt8]) -> ([UInt8], UInt8)? {
            let start: Int
            if report.starts(with: [0x1B, 0x5B]) {
                start = 2
            } else if report.first == 0x9B {
                start = 1
            } else if report.starts(with: [0xC2, 0x9B]) {
                start = 2
            } else {
                return nil
            }
            guard let final = report.last, report.count > start, (0x40...0x7E).contains(final) else { return nil }
            return (Array(report[start..<(report.count - 1)]), final)
        }
    }
}
