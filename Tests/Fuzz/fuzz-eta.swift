/// libFuzzer entry: the eta component's decoding and card on arbitrary payloads.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzComponent(ETAComponent(), UnsafeBufferPointer(start: data, count: size))
    return 0
}
