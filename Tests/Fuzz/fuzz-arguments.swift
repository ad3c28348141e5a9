import ArgumentParsing

/// libFuzzer entry: dispatch, the argument parser with every kind of typed option, did-you-mean and id validation
/// on arbitrary argument vectors (NUL-separated).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let arguments = text.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
    let options: [any OptionDeclaration] = [
        Option<OutputFormat>.choice("--format", help: ""), Option.flag("--plain", help: ""),
        Option.seconds("--every", in: 0.1...3600, help: ""),
        Option.text("--approved-by", "OWNER", repeatable: true, help: ""),
        Option.pairs("--event", example: "a=b", help: ""), Option.text("--base", "REF", required: true, help: ""),
    ]
    let commands = [
        CommandDeclaration(name: "track", positionals: .optional("ID"), options: options, summary: "", about: "") {
            0
        },
        CommandDeclaration(name: "gate", positionals: .many("PATH"), options: options, summary: "", about: "") { 1 },
    ]
    if case .run(_, let parsed)? = try? Invocation.of(
        arguments, tool: "fuzz", commands: commands, usage: "", fallback: "track")
    {
        for positional in parsed.positionals { _ = try? validateID(positional, kind: "order") }
    }
    for argument in arguments.prefix(4) { _ = suggestion(for: argument, among: ["--format", "preview", "cancel"]) }
    return 0
}
