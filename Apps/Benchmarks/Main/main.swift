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
    // `swift run courier-bench` builds only this product; first paint needs order-tracking built the same way.
    #if DEBUG
        let configuration = "debug"
    #else
        let configuration = "release"
    #endif
    FileHandle.standardError.write(
        Data("bench: building order-tracking (\(configuration)) for the first-paint figure…\n".utf8))
    let build = Process()
    build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    build.arguments = ["swift", "build", "-c", configuration, "--product", "order-tracking"]
    build.standardOutput = FileHandle.standardError
    try? build.run()
    build.waitUntilExit()
    if build.terminationStatus != 0 || !FileManager.default.isExecutableFile(atPath: orderTracking!.path) {
        FileHandle.standardError.write(
            Data("first paint skipped: run from the package root, or build order-tracking first\n".utf8))
        orderTracking = nil
    }
}
do {
    let report = try await Benchmarks.run(quick: arguments.contains("--quick"), orderTracking: orderTracking) {
        FileHandle.standardError.write(Data("bench: \($0)\n".utf8))
    }
    print(arguments.contains("--json") ? report.json.text : report.table)
} catch {
    FileHandle.standardError.write(Data("courier-bench: \(error)\n".utf8))
    exit(1)
}
