import CodeOwnership

/// libFuzzer entry: the CODEOWNERS parser and matcher on arbitrary files; the first line is also used as paths.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let owners = CodeOwners(text: text)
    let paths =
        ["a", "docs/a.md", "Modules/Core/X.swift", "a/b/c/d"] + text.split(separator: "\n").prefix(3).map(String.init)
    for path in paths {
        let ownership = owners.ownership(of: path)
        if let line = ownership.line, !owners.rules.contains(where: { $0.line == line }) {
            fatalError("line \(line) is no rule")
        }
        // The index is only a filter: it must give what trying every rule gives on the path as lookups see it
        // ("./a//b" is "a/b"; "." alone is no file at all).
        let naive = owners.rules.filter { $0.pattern.matches(CodeOwners.normalize(path)) }
        if owners.matchingRules(of: path) != naive || ownership.line != naive.last?.line {
            fatalError("index disagrees with the naive scan for '\(path)'")
        }
    }
    for issue in owners.issues where issue.line < 1 || issue.column < 1 { fatalError("bad position \(issue)") }
    return 0
}
