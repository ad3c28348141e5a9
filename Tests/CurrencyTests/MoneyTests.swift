import Currency
import Foundation
import Testing

@Suite struct MoneyTests {
    @Test(arguments: [
        ("SAR", 123_456, "SAR 1,234.56"), ("KWD", 3250, "KWD 3.250"), ("JPY", 1200, "JPY 1,200"),
        ("BHD", 5, "BHD 0.005"), ("SAR", 0, "SAR 0.00"),
    ])
    func amountsUseTheCurrencysOwnDecimals(currency: String, minor: Int, expected: String) {
        #expect(Money(minorUnits: minor, currency: currency)?.description == expected)
    }

    @Test func unknownCurrenciesAndNegativeAmountsAreRefused() {
        #expect(Money(minorUnits: 100, currency: "XYZ") == nil)
        #expect(Money(minorUnits: -1, currency: "SAR") == nil)
    }

    @Test func sumsNeverMixCurrencies() throws {
        let sar = Money(minorUnits: 4550, currency: "SAR")!
        #expect(try Money.sum([sar, sar.times(2)]) == Money(minorUnits: 13650, currency: "SAR"))
        #expect(throws: MoneyError.mixedCurrencies("SAR", "KWD")) {
            try Money.sum([sar, Money(minorUnits: 1, currency: "KWD")!])
        }
        #expect(throws: MoneyError.empty) { try Money.sum([]) }
    }

    @Test func decodingChecksTheCurrencyAndNamesTheField() throws {
        let money = try JSONDecoder().decode(Money.self, from: Data(#"{"minor": 4550, "currency": "SAR"}"#.utf8))
        #expect(money.description == "SAR 45.50")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Money.self, from: Data(#"{"minor": 1, "currency": "XYZ"}"#.utf8))
        }
    }

    @Test func arithmeticOnBackendNumbersIsCheckedNotTrapped() throws {
        let huge = Money(minorUnits: Int.max - 100, currency: "SAR")!
        #expect(throws: MoneyError.outOfRange) { try Money.sum([huge, Money(minorUnits: 101, currency: "SAR")!]) }
        #expect(try Money.sum([huge, Money(minorUnits: 100, currency: "SAR")!]).minorUnits == Int.max)
        #expect(throws: MoneyError.outOfRange) { try Money(minorUnits: Int.max, currency: "SAR")!.times(2) }
        #expect(throws: MoneyError.outOfRange) { try Money(minorUnits: 1, currency: "SAR")!.times(-1) }
        #expect("\(MoneyError.outOfRange)" == "amount out of range")
    }
}
