import Testing

@testable import CodeOwnership

@Suite struct LiteralScannerTests {
    /// Every occurrence, overlapping ones and literals ending inside longer ones included (the textbook case:
    /// "ushers" holds "she", "he" and "hers").
    @Test func everyOccurrenceIsFound() {
        let scanner = LiteralScanner([
            (Array("he".utf8), 1), (Array("she".utf8), 2), (Array("his".utf8), 3), (Array("hers".utf8), 4),
        ])
        func found(_ text: String) -> [Int32] {
            var values: [Int32] = []
            Array(text.utf8).withUnsafeBufferPointer { bytes in scanner.scan(bytes) { values.append($0) } }
            return values
        }
        #expect(found("ushers") == [2, 1, 4])
        #expect(found("hishe") == [3, 2, 1])
        #expect(found("hehe") == [1, 1])
        #expect(found("xyz") == [])
        #expect(scanner.longestChain == 2)
    }

    /// Anchored, only the literals a segment starts with count, each once, shorter ones first.
    @Test func anchoredFindsOnlyTheLiteralsASegmentStartsWith() {
        let scanner = LiteralScanner(
            [(Array("ab".utf8), 1), (Array("abc".utf8), 2), (Array("bc".utf8), 3), (Array("abd".utf8), 4)],
            anchored: true)
        func found(_ text: String) -> [Int32] {
            var values: [Int32] = []
            Array(text.utf8).withUnsafeBufferPointer { bytes in scanner.scan(bytes) { values.append($0) } }
            return values
        }
        #expect(found("abcd") == [1, 2])
        #expect(found("abdab") == [1, 4])
        #expect(found("xabc") == [])
        #expect(found("bcab") == [3])
        #expect(found("a") == [])
        #expect(scanner.longestChain == 1)
    }

    @Test func anEmptySetFindsNothing() {
        var found = 0
        Array("abc".utf8).withUnsafeBufferPointer { LiteralScanner([]).scan($0) { _ in found += 1 } }
        #expect(found == 0)
    }
}
