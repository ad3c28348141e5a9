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

    @Test func anEscAloneIsOnlyTheEscKeyOnceNothingFollows() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty, "it may be the start of an arrow")
        #expect(decoder.feed([0x5B]).isEmpty)
        #expect(decoder.feed([0x44]) == [.left], "a sequence split across reads")
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flush() == [.escape])
        #expect(keys([0x1B, 0x71]) == [.escape, .character("q")], "Esc then a key: both")
    }

    @Test func keysThatMeanNothingAreDropped() {
        #expect(keys([0x1B, 0x5B, 0x31, 0x35, 0x7E]).isEmpty, "F5: a sequence the screen does not use")
        #expect(keys([0x01, 0x02, 0x00]).isEmpty, "control bytes")
        #expect(keys([0xC2, 0x9B, 0x61]) == [.character("a")], "a C1 control is not a key")
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
