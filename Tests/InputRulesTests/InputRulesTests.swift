import InputRules
import Testing

@Suite struct InputRulesTests {
    @Test(arguments: ["SAVE10", "a", "visa4242", "ABCDEFGHIJKLMNOP"])
    func aCodeIsOneToSixteenLettersAndDigits(text: String) {
        #expect(InputCode(text)?.text == text)
    }

    @Test(arguments: ["", "SAVE-10", "SAVE10=X", "SAVE 10", "ABCDEFGHIJKLMNOPQ", "é1", "../x", "A?B", "１"])
    func anythingElseIsNoCode(text: String) {
        #expect(InputCode(text) == nil)
    }

    @Test func anIdAlsoTakesDashesAndUnderscoresUpToSixtyFour() {
        #expect(InputID("order-12_a")?.text == "order-12_a")
        #expect(InputID(String(repeating: "a", count: 64)) != nil)
        for bad in ["", "a/b", "../etc", "a b", "é", String(repeating: "a", count: 65)] { #expect(InputID(bad) == nil) }
    }

    @Test func everyCharacterAPromptLetsThroughIsACode() {
        for scalar in (0...0x2FF).compactMap(Unicode.Scalar.init) {
            let character = Character(scalar)
            #expect(InputCode.mayHold(character) == InputCode.accepts(String(character)), "\(scalar)")
        }
        #expect(!InputCode.mayHold("\r\n"))
    }

    @Test func oneRefusalPerKindWhateverWasWrong() {
        #expect(
            InputCode.refusal(of: "SAVE10=X", given: "--input promo")
                == "--input promo 'SAVE10=X' is not a code: use 1 to 16 letters and digits")
        #expect(
            InputCode.refusal(of: "SAVE10-X", given: "--input promo")
                == "--input promo 'SAVE10-X' is not a code: use 1 to 16 letters and digits")
        #expect(
            InputID.refusal(of: "a/b", given: "--input cart") == "--input cart 'a/b' is not an id: " + InputID.advice)
    }

    @Test func aLongValueIsCutWhenEchoed() {
        let huge = String(repeating: "A", count: 100_000)
        let refusal = InputCode.refusal(of: huge, given: "--promo")
        #expect(refusal.count < 120)
        #expect(refusal.contains("'" + String(repeating: "A", count: 40) + "…' (100000 characters)"))
        #expect(InputEcho.quoted("\u{1B}[2J") == "'␛[2J'")
        #expect(InputEcho.cut(String(repeating: "b", count: 40)) == String(repeating: "b", count: 40))
    }
}
