import Core
import HostIO
import Testing

/// The bytes a terminal sends, as keys: arrows, Tab and Shift-Tab, Enter, Backspace, Esc alone, any script.
@Suite struct KeyDecoderTests {
    func keys(_ bytes: [UInt8], flush: Bool = false) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(bytes) + (flush ? decoder.flush() : [])
    }

    @Test func arrowsTabsAndEditingKeys() {
        #expect(keys([0x1B, 0x5B, 0x44, 0x1B, 0x5B, 0x43]) == [.left, .right])
        #expect(keys([0x1B, 0x4F, 0x44]) == [.left], "application cursor mode (SS3)")
        #expect(keys([0x09, 0x1B, 0x5B, 0x5A]) == [.tab, .backTab])
        #expect(keys([0x0D, 0x7F, 0x08]) == [.enter, .backspace, .backspace])
        #expect(keys(Array("p?q1".utf8)) == [.character("p"), .character("?"), .character("q"), .character("1")])
    }

    /// A bracketed paste is one ``Key/paste(_:)``: the `P` and `y` of a pasted "Py2024" never press keys, even
    /// when the paste and its markers arrive split across reads.
    @Test func aBracketedPasteIsTextNotKeys() {
        let start = Array("\u{1B}[200~".utf8)
        let end = Array("\u{1B}[201~".utf8)
        #expect(
            keys(Array("r".utf8) + start + Array("Py2024".utf8) + end + Array("q".utf8)) == [
                .character("r"), .paste("Py2024"), .character("q"),
            ])
        let whole = start + Array("Py\u{1B}[Dé".utf8) + end
        for cut in 1..<whole.count {
            var decoder = KeyDecoder()
            // A quiet moment after a lone Esc is the Esc key; any longer start of the marker waits.
            var split = decoder.feed(Array(whole[..<cut]))
            if cut >= 2 { split += decoder.flush() }
            split += decoder.feed(Array(whole[cut...]))
            #expect(split == [.paste("Py\u{1B}[Dé")], "split at \(cut)")
        }
        var decoder = KeyDecoder()
        let huge = decoder.feed(start + [UInt8](repeating: 0x79, count: 200_000)) + decoder.feed(end)
        #expect(huge == [.paste(String(repeating: "y", count: 1 << 16))], "a runaway paste is cut, never keys")
    }

    @Test func theKeysThatScroll() {
        let sequences: [(String, Key)] = [
            ("\u{1B}[A", .up), ("\u{1B}[B", .down), ("\u{1B}OA", .up), ("\u{1B}[1;5B", .down),
            ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[5;3~", .pageUp), ("\u{1B}[H", .home),
            ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[7~", .home), ("\u{1B}[8~", .end),
            ("\u{1B}OH", .home), ("\u{1B}OF", .end),
        ]
        for (sequence, key) in sequences {
            #expect(keys(Array(sequence.utf8)) == [key], "\(sequence.debugDescription)")
        }
        #expect(keys(Array("\u{1B}[12;40R\u{1B}[2~\u{1B}[15~".utf8)).isEmpty, "a report, Insert and F5 scroll nothing")
    }

    @Test func anEscAloneIsOnlyTheEscKeyOnceNothingFollows() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty, "it may be the start of an arrow")
        #expect(decoder.feed([0x5B]).isEmpty)
        #expect(decoder.feed([0x44]) == [.left], "a sequence split across reads")
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flush() == [.escape])
        #expect(keys([0x1B, 0x1B], flush: true) == [.escape, .escape], "two presses of Esc")
    }

    /// Alt+key arrives as Esc and the key in one write: neither Esc (which would quit) nor the key.
    @Test func altKeyIsNotEsc() {
        #expect(keys([0x1B, 0x72], flush: true).isEmpty, "Alt+r")
        #expect(keys([0x1B, 0x71, 0x72], flush: true) == [.character("r")], "Alt+q, then r")
        #expect(keys(Array("\u{1B}é".utf8), flush: true).isEmpty, "Alt+é")
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B, 0xC3]).isEmpty && decoder.feed([0xA9]).isEmpty, "split across reads")
    }

    /// A terminal's replies (OSC 11 colour answer, DCS, 8-bit forms) are skipped whole: never Esc, never keys.
    @Test func terminalRepliesAreNotKeys() {
        let osc = Array("\u{1B}]11;rgb:0000/0000/0000\u{07}".utf8)
        let oscST = Array("\u{1B}]10;rgb:ffff/ffff/ffff\u{1B}\\".utf8)
        let dcs = Array("\u{1B}P1$r0m\u{1B}\\".utf8)
        let eightBit: [UInt8] = [0x9D] + Array("52;c;cXE=".utf8) + [0x9C]
        let utf8C1: [UInt8] = [0xC2, 0x9D] + Array("0;title".utf8) + [0xC2, 0x9C]
        let cursorReport: [UInt8] = [0x9B] + Array("12;1R".utf8)
        let cursorReportUTF8: [UInt8] = [0xC2, 0x9B] + Array("3;4R".utf8)
        for reply in [osc, oscST, dcs, eightBit, utf8C1, cursorReport, cursorReportUTF8] {
            #expect(keys(reply + Array("r".utf8), flush: true) == [.character("r")], "\(reply)")
        }
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array(osc.prefix(6))).isEmpty && decoder.feed(Array(osc.dropFirst(6))).isEmpty)
        #expect(keys(Array(repeating: 0x61, count: 5000).withOSCPrefix, flush: true).isEmpty, "an endless string")
    }

    /// The answers to the width question (cursor positions, the mode 2027 report, device attributes) arrive
    /// among the keys, split anywhere: they are handed over as reports, whole and in order, and never as keys.
    @Test func theWidthQuestionsAnswersAreReportsNotKeys() {
        let answers = "\u{1B}[?2027;0$y" + "\u{1B}[1;2R\u{1B}[1;4R" + "\u{1B}[?62;22c"
        let bytes = Array(("q" + answers + "r").utf8)
        var decoder = KeyDecoder()
        var keys: [Key] = []
        for byte in bytes { keys += decoder.feed([byte]) }
        #expect(keys == [.character("q"), .character("r")])
        let reports = decoder.takeReports()
        #expect(
            reports.map { String(decoding: $0, as: UTF8.self) } == [
                "\u{1B}[?2027;0$y", "\u{1B}[1;2R", "\u{1B}[1;4R", "\u{1B}[?62;22c",
            ])
        #expect(decoder.takeReports().isEmpty, "taken once")
        var arrows = KeyDecoder()
        #expect(arrows.feed(Array("\u{1B}[A\u{1B}[15~".utf8)) == [.up] && arrows.takeReports().isEmpty)
    }

    @Test func keysThatMeanNothingAreDropped() {
        #expect(keys([0x1B, 0x5B, 0x31, 0x35, 0x7E]).isEmpty, "F5: a sequence the screen does not use")
        #expect(keys([0x01, 0x02, 0x00]).isEmpty, "control bytes")
        #expect(keys([0xC2, 0x85, 0x61]) == [.character("a")], "a C1 control is not a key")
        #expect(keys([0xFF, 0x62]) == [.character("b")], "a broken byte is not a key")
        #expect(keys(Array(repeating: 0x31, count: 3) + [0x1B, 0x5B] + Array(repeating: 0x30, count: 40)).count == 3)
    }

    @Test func anyScriptArrivesWhole() {
        #expect(keys(Array("é日🙂".utf8)) == [.character("é"), .character("日"), .character("🙂")])
        var decoder = KeyDecoder()
        let bytes = Array("日".utf8)
        #expect(decoder.feed([bytes[0]]).isEmpty)
        #expect(decoder.feed(Array(bytes[1...])) == [.character("日")])
    }
}

extension Array where Element == UInt8 {
    /// These bytes inside an unterminated OSC string.
    fileprivate var withOSCPrefix: [UInt8] { [0x1B, 0x5D] + self }
}
