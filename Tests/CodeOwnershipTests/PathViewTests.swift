import Testing

@testable import CodeOwnership

/// The split a lookup reads eight bytes at a time must give the segments `PathBytes.segments` gives byte by byte,
/// wherever a "/" falls in a word, for "." and empty segments, bytes next to "/" in value ("." and "0"), and
/// paths deeper than the stack buffer.
@Suite struct PathViewTests {
    @Test func everySlashPositionSplitsAsTheSlowSplit() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = Array("/./0a.\u{2F}é".utf8) + [0x2E, 0x30, 0x2F, 0xAF, 0x6F]
        for length in 0..<40 {
            for _ in 0..<200 {
                let path = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
                #expect(split(path) == PathBytes.segments(path).map(Array.init), "\(path)")
            }
        }
    }

    @Test func aPathDeeperThanTheStackBufferSplitsWhole() {
        let path = Array((0..<200).map { "d\($0)" }.joined(separator: "/").utf8)
        #expect(split(path) == PathBytes.segments(path).map(Array.init))
        #expect(split(path).count == 200)
    }

    private func split(_ path: [UInt8]) -> [[UInt8]] {
        path.withUnsafeBufferPointer { bytes in
            PathView.with(bytes) { view in (0..<view.count).map { Array(view[$0]) } }
        }
    }
}
