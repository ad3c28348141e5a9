import BenchmarksKit
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let unknown = arguments.filter { !["--json", "--quick", "--help"].contains($0) }
if arguments.contains("--help") || !unknown.isEmpty {
    let message = "usage: courier-bench [--json] [--quick]\n  prints every performance figure as a ratio or a rate\n"
    FileHandle.standardError.write(Data(((unknown.isEmpty ? "" : "unknown argument '\(unknown[0])'\n") + message).utf8))
    exit(unknown.isEmpty ? 0 : 64)
}
let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
var orderTracking: URL? = folder.appendingPathComponent("order-tracking")
if !FileManager.default.isExecutableFile(atPath: orderTracking!.path) {
    FileHandle.standardError.write(
        Data("first paint skipped: build order-tracking beside courier-bench (swift build -c release)\n".utf8))
    orderTracking = nil
}
do {
    let report = try await Benchmarks.run(quick: arguments.contains("--quick"), orderTracking: orderTracking) {
        FileHandle.standardError.write(Data("bench: \($0)\n".utf8))
    }
    print(arguments.contains("--json") ? String(decoding: try report.json.data(), as: UTF8.self) : report.table)
} catch {
    FileHandle.standardError.write(Data("courier-bench: \(error)\n".utf8))
    exit(1)
}
