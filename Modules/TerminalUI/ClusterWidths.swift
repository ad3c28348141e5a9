/// How many columns the terminal this run draws on gives each kind of grapheme cluster whose width terminals
/// disagree on. Unicode's own widths (UTS #51, ``DisplayWidth``'s rules) are right where a terminal clusters
/// graphemes (mode 2027: Ghostty, iTerm2, tmux 3.4+); a terminal that counts code points (tmux 3.3a, Terminal.app,
/// VS Code's terminal, kitty) draws an emoji with VS16 one column wide, a skin tone on a text-default base three,
/// and so on, and a card's right border moves unless every string is measured as that terminal draws it. The
/// terminal says so when asked (``WidthProbe``); until it has answered, and forever if it never does, the widths
/// are Unicode's (``unicode``).
///
/// ``DisplayWidth`` reads the widths in force from ``current``, a task-local: a drawing path binds the answers of
/// its own terminal around the drawing (`ClusterWidths.$current.withValue(answers) { … }`), and anything that
/// does not (a pipe, `--plain`, a test) measures with Unicode's widths.
public struct ClusterWidths: Sendable, Equatable, CustomStringConvertible {
    /// A kind of cluster terminals disagree on, with the cluster that stands for it when the terminal is asked.
    public enum Kind: String, Sendable, CaseIterable {
        /// A text-default base with VS16, ❤️: 2 by UTS #51, 1 where VS16 takes no cell.
        case emojiVS16
        /// A keycap, #️⃣: 2 by UTS #51, 1 in a code-point count.
        case keycap
        /// An emoji-default base with VS15, ⌚︎: 1 by UTS #51, 2 in a code-point count.
        case textVS15
        /// A skin tone on a text-default base, ☝🏻: 2 by UTS #51, 3 in a code-point count.
        case toneOnTextBase
        /// A skin tone on an emoji-default base, 👍🏻: 2 by UTS #51, 4 in a code-point count.
        case toneOnEmojiBase
        /// An emoji ZWJ sequence, 👨‍👩‍👧: 2 by UTS #51; anything else is the sum of its code points.
        case zwjSequence
        /// A flag, two regional indicators 🇸🇦: 2 by UTS #51, 2 or 4 in a code-point count.
        case flag
        /// A spacing mark after its base, का: its own cell by the code points (Courier's default), none in some
        /// terminals. The answer is the whole probe's width, so a spacing mark takes the answer less one.
        case spacingMark
        /// A format character alone, ZWSP (U+200B): none by Unicode, a cell in some terminals.
        case formatCharacter
        /// A text-default pictograph alone above U+1F000, 🕳: 1 by UTS #51, 2 in some terminals.
        case textPictograph

        /// The cluster printed to ask the terminal how wide it draws this kind.
        public var probe: String {
            switch self {
            case .emojiVS16: "\u{2764}\u{FE0F}"
            case .keycap: "#\u{FE0F}\u{20E3}"
            case .textVS15: "\u{231A}\u{FE0E}"
            case .toneOnTextBase: "\u{261D}\u{1F3FB}"
            case .toneOnEmojiBase: "\u{1F44D}\u{1F3FB}"
            case .zwjSequence: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
            case .flag: "\u{1F1F8}\u{1F1E6}"
            case .spacingMark: "\u{0915}\u{093E}"
            case .formatCharacter: "\u{200B}"
            case .textPictograph: "\u{1F573}"
            }
        }
    }

    /// The columns the terminal gave each kind's probe, for the kinds it was asked about and answered.
    public let answers: [Kind: Int]
    /// The answers that differ from Unicode's width of the probe: the only ones measuring looks at.
    let overrides: [Kind: Int]

    /// Widths from the terminal's answers: each kind's probe cluster took `answers[kind]` columns. An answer
    /// outside 0...8 columns is no answer (a cursor report that cannot be a width).
    public init(answers: [Kind: Int] = [:]) {
        self.answers = answers.filter { (0...8).contains($0.value) }
        overrides = self.answers.filter { $0.value != DisplayWidth.unicodeColumns(Character($0.key.probe)) }
    }

    /// Unicode's widths: what a terminal that answers nothing, a pipe and a test get.
    public static let unicode = ClusterWidths()

    /// The widths in force for the measuring done in this task (or thread): Unicode's unless a drawing path
    /// bound its terminal's answers.
    @TaskLocal public static var current: ClusterWidths = .unicode

    /// The kinds whose width the terminal's answers change; empty when it agrees with Unicode everywhere.
    public var differences: [Kind] { Kind.allCases.filter { overrides[$0] != nil } }

    /// Whether every answer agrees with Unicode's width (or there is none): measuring is Unicode's.
    public var agreesWithUnicode: Bool { overrides.isEmpty }

    /// Two answers measure alike when they differ from Unicode's in the same kinds by the same columns.
    public static func == (left: ClusterWidths, right: ClusterWidths) -> Bool { left.overrides == right.overrides }

    /// "emojiVS16 1, keycap 1": the answers that differ from Unicode, for a trace.
    public var description: String {
        let differing = differences.map { "\($0.rawValue) \(overrides[$0] ?? 0)" }
        return differing.isEmpty ? "Unicode's widths" : differing.joined(separator: ", ")
    }
}
