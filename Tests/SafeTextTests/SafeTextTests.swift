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
        // Every invisible bidirectional control: embeddings, overrides, isolates and the marks.
        (
            "a\u{202A}\u{202B}\u{202C}\u{202D}\u{2066}\u{2067}\u{2068}\u{2069}\u{200E}\u{200F}\u{061C}b",
            "a" + String(repeating: "\u{FFFD}", count: 11) + "b"
        ),
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
