import Testing

@testable import CodeOwnership

@Suite struct ByteNamesTests {
    /// Every name is found again after the tables have grown many times over, as a borrowed segment too (read
    /// as one word when the path goes on, byte by byte when it ends), and nothing else is: short names, long
    /// ones, and bytes no text would hold.
    @Test(arguments: [UInt64(1), 0x9E37_79B9_7F4A_7C15, .max])
    func everyNameIsFoundAndNothingElse(seed: UInt64) {
        var random = seed
        func next(_ bound: Int) -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((random >> 33) % UInt64(bound))
        }
        func name() -> [UInt8] {
            let length = 1 + (next(4) == 0 ? next(20) : next(7))
            return (0..<length).map { _ in next(3) == 0 ? UInt8(next(256)) : UInt8(ascii: "a") + UInt8(next(4)) }
        }
        var names = ByteNames(seed: seed)
        var numbers: [[UInt8]: Int] = [:]
        for _ in 0..<3000 {
            let bytes = name()
            let number = names.number(bytes)
            #expect(numbers[bytes, default: number] == number)
            numbers[bytes] = number
        }
        #expect(names.count == numbers.count)
        var others = 0
        for _ in 0..<20000 {
            let bytes = next(2) == 0 ? Array(numbers.keys)[next(numbers.count)] : name()
            // The segment followed by more of its path (so it may be read a word at a time) and alone.
            let path = bytes + [UInt8(ascii: "/")] + Array(repeating: UInt8(ascii: "x"), count: 8)
            let expected = numbers[bytes]
            if expected == nil { others += 1 }
            bytes.withUnsafeBufferPointer { segment in
                #expect(names.find(segment) == expected, "\(bytes)")
                #expect(names.findSegment(segment, readable: segment.count).number == expected, "\(bytes)")
            }
            path.withUnsafeBufferPointer { path in
                let segment = UnsafeBufferPointer(rebasing: path[..<bytes.count])
                #expect(names.findSegment(segment, readable: path.count).number == expected, "\(bytes)")
            }
        }
        #expect(others > 1000)
    }
}
