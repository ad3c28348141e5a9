import ArgumentParsing

/// libFuzzer entry: the argument parser, did-you-mean and id validation on arbitrary argument vectors
/// (NUL-separated).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let arguments = text.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
    let parser = ArgumentParser(
        options: [
            OptionSpec("--format", .required("text|json")), OptionSpec("--plain"),
            OptionSpec("--watch", .optionalNumber("S")),
            OptionSpec("--approved-by", .required("OWNER")),
        ], repeatable: ["--approved-by"])
    if let parsed = try? parser.parse(arguments) {
        for positional in parsed.positionals { _ = try? validateID(positional, kind: "order") }
    }
    for argument in arguments.prefix(4) { _ = suggestion(for: argument, among: ["--format", "preview", "cancel"]) }
    return 0
}
