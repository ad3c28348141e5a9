import Foundation
import JSON

/// libFuzzer entry: Core's JSON parser on arbitrary bytes. Whatever parses must serialise and parse back to the
/// same value; anything else must be a JSONSyntaxError, never a crash or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let value = try? JSONValue(parsing: Data(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    guard let again = try? JSONValue(parsing: value.data()), again == value else {
        fatalError("round trip changed \(value.text)")
    }
    return 0
}
