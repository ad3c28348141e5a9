import Foundation
import TerminalUI
import Testing

/// Text from hex code points ("1F600 FE0F").
func text(hex: Substring) -> String {
    var scalars = String.UnicodeScalarView()
    for part in hex.split(separator: " ") {
        if let value = UInt32(part, radix: 16), let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
    }
    return String(scalars)
}

/// Widths as terminals that follow Unicode draw them: the cases issue 49 found wrong, and the committed sample of
/// the `wcwidth` package's answers.
@Suite struct UnicodeWidthTests {
    @Test(arguments: [
        ("寿司", 4, "CJK"), ("𗀀𗀁", 4, "Tangut"), ("𛅰", 2, "Nüshu"), ("𛀀𛄟", 4, "Kana Supplement"),
        ("\u{FE10}\u{FE19}", 4, "vertical forms U+FE10–FE19"), ("\u{FE50}\u{FE6B}", 4, "small forms U+FE50–FE6B"),
        ("\u{2329}\u{232A}", 4, "angle brackets U+2329/232A"), ("\u{A960}\u{A97C}", 4, "Hangul Jamo Extended-A"),
        ("\u{1F200}\u{1F265}", 4, "enclosed ideographic supplement"), ("\u{1100}\u{1161}\u{11A8}", 2, "Hangul L+V+T"),
        ("\u{1160}", 0, "Hangul medial jamo"), ("\u{D7B0}\u{D7FB}", 0, "Hangul Jamo Extended-B"),
        ("a\u{200B}b", 2, "ZWSP"), ("a\u{200E}b", 2, "LRM"), ("a\u{200D}", 1, "ZWJ"),
        ("\u{2060}\u{2061}\u{2064}\u{206A}\u{206F}", 0, "U+2060–206F"), ("x\u{E0041}\u{E007F}", 1, "tags"),
        ("🕳", 1, "text-default pictograph"), ("🐿", 1, "text-default pictograph"), ("🌡", 1, "text-default"),
        ("🖐", 1, "text-default pictograph"), ("❤️", 2, "VS16"), ("☺️", 2, "VS16"), ("🕳️", 2, "VS16 on 🕳"),
        ("#️⃣", 2, "keycap"), ("1️⃣", 2, "keycap"), ("#\u{20E3}", 1, "keycap without VS16 is text"),
        ("⌚", 2, "emoji presentation"), ("⌚︎", 1, "VS15"), ("☺︎", 1, "VS15 on a text-default base"),
        ("👨‍👩‍👧", 2, "ZWJ sequence"), ("🏳️‍🌈", 2, "ZWJ sequence with VS16"), ("🇸🇦", 2, "flag"),
        ("🧑🏽‍💻", 2, "modifier + ZWJ"), ("☝🏻", 2, "modifier sequence on a text-default base"),
        ("🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", 2, "tag sequence"),
        ("का", 2, "Devanagari spacing mark"), ("कि", 2, "Devanagari spacing mark"), ("हिंदी", 4, "Devanagari"),
        ("क्षि", 3, "conjunct + spacing mark: a cell each, as tmux (wcwidth says 2)"),
        ("कोः", 3, "two spacing marks: a cell each, as tmux (wcwidth says 2)"), ("กำ", 2, "Thai AM"), ("น้ำ", 2, "Thai"),
        ("ไทย", 3, "Thai"), ("e\u{301}", 1, "combining mark"),
        ("مطعم البيك", 10, "Arabic"), ("عُمَر", 3, "Arabic with harakat"), ("مُحَمَّد", 4, "Arabic with shadda"),
        ("\u{00AD}", 1, "soft hyphen is drawn"), ("\u{0600}\u{0661}", 2, "Arabic number sign is drawn"),
    ])
    func theCasesIssue49Found(text: String, columns: Int, what: String) {
        #expect(DisplayWidth.of(text) == columns, "\(what)")
    }

    /// The one place widths are counted: a string's width is the sum of its graphemes', so truncation and
    /// wrapping cut where the width says.
    @Test func truncateAndWrapCutAtGraphemesByTheirColumns() {
        #expect(DisplayWidth.truncate("❤️❤️❤️", to: 5) == "❤️❤️…")
        #expect(DisplayWidth.truncate("𗀀𗀁𗀂", to: 4) == "𗀀…")
        #expect(DisplayWidth.truncate("काकाका", to: 5) == "काका…")
        #expect(DisplayWidth.wrap("กำกำกำ", to: 4) == ["กำกำ", "กำ"])
        #expect(DisplayWidth.pad("#️⃣", to: 4) == "#️⃣  ")
    }

    /// Every line of the committed sample (Scripts/generate-wcwidth-sample): wcwidth's answer, or, where the line
    /// names a reason, the width Courier draws on purpose.
    @Test func agreesWithTheWcwidthSample() {
        let reasons: Set<Substring> = [
            "lone-spacing-mark", "wide-spacing-mark", "vs15", "modifier-sequence", "hangul-filler",
        ]
        var checked = 0
        var wrong: [String] = []
        for line in WcwidthSample.lines.split(separator: "\n") {
            let fields = line.split(separator: ";")
            guard fields.count == 2 || (fields.count == 4 && reasons.contains(fields[3])),
                let expected = Int(fields[fields.count == 4 ? 2 : 1])
            else {
                wrong.append("unreadable line \(line)")
                continue
            }
            let measured = DisplayWidth.of(text(hex: fields[0]))
            checked += 1
            if measured != expected { wrong.append("\(fields[0]): \(measured), expected \(line)") }
        }
        #expect(checked > 7000, "the sample is there (\(WcwidthSample.source))")
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(20))")
    }
}

/// The Unicode Character Database files the table is generated from, where the machine has them (Debian's
/// `unicode-data` package) in the table's version.
enum UnicodeDataFiles {
    static let directory = "/usr/share/unicode"

    static func read(_ name: String) -> String? {
        try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)
    }

    /// The version the files name, if they are there.
    static let version: String? = read("EastAsianWidth.txt").flatMap { text in
        text.split(separator: "\n").first.flatMap { line in
            line.split(separator: "-").last?.split(separator: ".txt").first.map(String.init)
        }
    }

    static let usable = version == DisplayWidth.unicodeVersion

    static let reason = Comment(
        rawValue: version.map {
            "\(directory) holds Unicode \($0), the table Unicode \(DisplayWidth.unicodeVersion): "
                + "regenerate it with Scripts/generate-unicode-widths"
        } ?? "no Unicode data files in \(directory) (apt-get install -y unicode-data)")

    /// Each data line's first and last code point and its fields (a sequence's code points stay in the first).
    static func entries(_ name: String) -> [(first: UInt32, last: UInt32, fields: [Substring])] {
        (read(name) ?? "").split(separator: "\n").compactMap { line in
            let data = line.prefix { $0 != "#" }
            let fields = data.split(separator: ";", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)[...]
            }
            guard fields.count > 1, !fields[0].isEmpty else { return nil }
            let span = fields[0].split(separator: " ")[0].components(separatedBy: "..")
            guard let first = UInt32(span[0], radix: 16), let last = UInt32(span[span.count - 1], radix: 16)
            else { return nil }
            return (first, last, Array(fields.dropFirst()))
        }
    }
}

@Suite(.enabled(if: UnicodeDataFiles.usable, UnicodeDataFiles.reason))
struct UnicodeDataFileTests {
    /// Every code point alone against the rules applied to the data files read here, independently of the
    /// generator: Wide and Fullwidth (and the CJK blocks EastAsianWidth defaults to Wide) and emoji presentation
    /// 2; marks, format characters but the drawn ones, separators, controls, unassigned default-ignorables and
    /// Hangul medial/final jamo 0; everything else 1.
    @Test func everyCodePointMatchesTheDataFiles() throws {
        var width = [UInt8](repeating: 1, count: 0x110000)
        func set(_ first: UInt32, _ last: UInt32, _ value: UInt8) {
            for code in first...last { width[Int(code)] = value }
        }
        for line in (UnicodeDataFiles.read("extracted/DerivedEastAsianWidth.txt") ?? "").split(separator: "\n")
        where line.hasPrefix("# @missing:") && line.hasSuffix("Wide") {
            let span = line.dropFirst(11).prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
                .components(separatedBy: "..")
            set(UInt32(span[0], radix: 16)!, UInt32(span[1], radix: 16)!, 2)
        }
        for entry in UnicodeDataFiles.entries("EastAsianWidth.txt") {
            set(entry.first, entry.last, entry.fields[0] == "W" || entry.fields[0] == "F" ? 2 : 1)
        }
        for entry in UnicodeDataFiles.entries("emoji/emoji-data.txt") where entry.fields[0] == "Emoji_Presentation" {
            set(entry.first, entry.last, 2)
        }
        let drawn = Set(
            UnicodeDataFiles.entries("PropList.txt").filter { $0.fields[0] == "Prepended_Concatenation_Mark" }
                .flatMap { $0.first...$0.last } + [0xAD])
        var unassigned = Set<UInt32>()
        for entry in UnicodeDataFiles.entries("extracted/DerivedGeneralCategory.txt") {
            switch entry.fields[0] {
            case "Mn", "Me", "Cf", "Zl", "Zp", "Cc":
                for code in entry.first...entry.last where !drawn.contains(code) { width[Int(code)] = 0 }
            case "Cn": unassigned.formUnion(entry.first...entry.last)
            default: break
            }
        }
        for entry in UnicodeDataFiles.entries("DerivedCoreProperties.txt")
        where entry.fields[0] == "Default_Ignorable_Code_Point" {
            for code in entry.first...entry.last where unassigned.contains(code) { width[Int(code)] = 0 }
        }
        for entry in UnicodeDataFiles.entries("HangulSyllableType.txt") where ["V", "T"].contains(entry.fields[0]) {
            set(entry.first, entry.last, 0)
        }
        set(0xD7B0, 0xD7FF, 0)
        var wrong: [String] = []
        var checked = 0
        for code in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(code) else { continue }
            checked += 1
            let measured = DisplayWidth.of(Character(scalar))
            if measured != Int(width[Int(code)]) {
                wrong.append(String(format: "U+%04X: %d, the data says %d", code, measured, width[Int(code)]))
            }
        }
        #expect(checked == 0x110000 - 0x800)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(20))")
    }

    /// Every emoji sequence Unicode lists (keycaps, flags, skin tones, tag and ZWJ sequences, and each
    /// Basic_Emoji) is two columns; a variation sequence is two with VS16 and one with VS15.
    @Test func everyEmojiSequenceMatchesTheDataFiles() {
        var wrong: [String] = []
        var checked = 0
        for name in ["emoji/emoji-sequences.txt", "emoji/emoji-zwj-sequences.txt"] {
            for line in (UnicodeDataFiles.read(name) ?? "").split(separator: "\n") {
                let field = line.prefix { $0 != ";" && $0 != "#" }.trimmingCharacters(in: .whitespaces)
                guard !field.isEmpty else { continue }
                let span = field.components(separatedBy: "..")
                let sequences =
                    span.count == 2
                    ? (UInt32(span[0], radix: 16)!...UInt32(span[1], radix: 16)!).map { String(format: "%X", $0) }
                    : [field]
                for hex in sequences {
                    checked += 1
                    let measured = DisplayWidth.of(text(hex: hex[...]))
                    if measured != 2 { wrong.append("\(hex): \(measured)") }
                }
            }
        }
        for base in Set(UnicodeDataFiles.entries("emoji/emoji-variation-sequences.txt").map(\.first)) {
            let hex = String(format: "%X", base)
            for (selector, expected) in [("FE0F", 2), ("FE0E", 1)] {
                checked += 1
                let measured = DisplayWidth.of(text(hex: "\(hex) \(selector)"[...]))
                if measured != expected { wrong.append("\(hex) \(selector): \(measured)") }
            }
        }
        #expect(checked > 4000)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(20))")
    }
}
