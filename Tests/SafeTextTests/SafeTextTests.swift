import SafeText
import Testing

@Suite struct SafeTextTests {
    @Test(arguments: [
        ("\u{1B}]52;c;aGk=\u{07}Pizza", "␛]52;c;aGk=␇Pizza"),  // OSC 52 clipboard write
        ("\u{1B}[2JBurger", "␛[2JBurger"),  // clear screen
        ("a\u{9B}31mb", "a\u{FFFD}31mb"),  // C1 CSI in one byte
        ("line one\nfake: may merge\r", "line one␊fake: may merge␍"),
        ("nul\u{0}back\u{8}del\u{7F}", "nul␀back␈del␡"),
        ("tab\there", "tab␉here"),
        ("sep\u{2028}bidi\u{202E}txt", "sep\u{FFFD}bidi\u{FFFD}txt"),
    ])
    func controlCharactersBecomeVisible(raw: String, shown: String) {
        #expect(SafeText.visible(raw) == shown)
        #expect(!SafeText.visible(raw).unicodeScalars.contains(where: SafeText.isUnsafe))
    }

    @Test func printableTextIsUnchanged() {
        for text in ["Al Baik — Riyadh", "café", "cafe\u{301}", "ピザ 🍕", ""] {
            #expect(SafeText.visible(text).unicodeScalars.elementsEqual(text.unicodeScalars))
        }
    }
}
