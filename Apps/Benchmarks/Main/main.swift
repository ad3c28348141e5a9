import BenchmarksKit
import Foundation
import HostIO

var arguments = Array(CommandLine.arguments.dropFirst())
let ownersOnly = arguments.first == "owners"
if ownersOnly { arguments.removeFirst() }
let monorepo = arguments.first == "monorepo"
let unknown = arguments.enumerated().filter { index, argument in
    !monorepo
        && !["--json", "--quick", "--help", "--dump", "--no-peer", "--go-peer", "--shapes"].contains(argument)
        && !(index > 0 && ["--dump", "--go-peer", "--shapes"].contains(arguments[index - 1]))
}.map(\.element)
if arguments.contains("--help") || !unknown.isEmpty {
    let message =
        "usage: courier-bench [owners [--dump DIR] [--shapes DIR] [--no-peer] [--go-peer DIR]] [--json] [--quick]\n       courier-bench monorepo --modules N\n  prints every performance figure as a ratio or a rate; "
        + "owners: only the CODEOWNERS shapes beside the Python peer and, given a hmarr/codeowners checkout and Go, the Go one; --shapes measures DIR's NAME-CODEOWNERS and NAME-paths.txt pairs instead of the generated shapes\n"
    FileHandle.standardError.write(Data(((unknown.isEmpty ? "" : "unknown argument '\(unknown[0])'\n") + message).utf8))
    exit(unknown.isEmpty ? 0 : 64)
}
/// Builds `command` (from the package root) and returns `binary` when it is there, or nil after saying why.
func build(_ command: [String], binary: URL, for figure: String) -> URL? {
    guard FileManager.default.fileExists(atPath: "Package.swift") else {
        FileHandle.standardError.write(Data("\(figure) skipped: run courier-bench from the package root\n".utf8))
        return nil
    }
    FileHandle.standardError.write(Data("bench: \(command.joined(separator: " "))…\n".utf8))
    let status =
        (try? ChildProcess.startForTest(
            command, output: FileHandle.standardError, error: FileHandle.standardError))?.wait()
    guard status == 0, FileManager.default.isExecutableFile(atPath: binary.path) else {
        FileHandle.standardError.write(Data("\(figure) skipped: the build failed (above)\n".utf8))
        return nil
    }
    return binary
}

let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
/// The order-tracking to time: in release, the shipping build (`Scripts/build-shipping`: static Swift runtime),
/// rebuilt if needed; in debug, the debug one beside this tool. `squad` is the one beside this tool.
func orderTrackingBinary() -> URL? {
    #if DEBUG
        let beside = folder.appendingPathComponent("order-tracking")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return build(["swift", "build", "--product", "order-tracking"], binary: beside, for: "first paint")
    #else
        return build(
            ["bash", "Scripts/build-shipping"], binary: URL(fileURLWithPath: ".build/shipping/release/order-tracking"),
            for: "first paint")
    #endif
}

func squadBinary() -> URL? {
    #if DEBUG
        let command = ["swift", "build", "--product", "squad"]
    #else
        let command = ["swift", "build", "-c", "release", "--product", "squad"]
    #endif
    return build(command, binary: folder.appendingPathComponent("squad"), for: "squad lint")
}

/// The folder named after `flag`, if given.
@MainActor func folderArgument(after flag: String) -> URL? {
    arguments.firstIndex(of: flag).flatMap { $0 + 1 < arguments.count ? URL(fileURLWithPath: arguments[$0 + 1]) : nil }
}

if arguments.first == "monorepo" {
    // courier-bench monorepo --modules N: a squad's inner loop at 10 synthetic squads and at N, in a scratch clone.
    let rest = Array(arguments.dropFirst())
    guard rest.count == 2, rest[0] == "--modules", let modules = Int(rest[1]), modules > MonorepoBenchmark.baseline
    else {
        FileHandle.standardError.write(
            Data(
                ("usage: courier-bench monorepo --modules N (N > \(MonorepoBenchmark.baseline); run from the package "
                    + "root: it clones the committed repository, adds N squads with squad new, builds and times)\n")
                    .utf8))
        exit(64)
    }
    guard FileManager.default.fileExists(atPath: "Package.swift"), let squad = squadBinary() else {
        FileHandle.standardError.write(Data("courier-bench monorepo: run it from the package root\n".utf8))
        exit(64)
    }
    do {
        let sizes = try MonorepoBenchmark.run(
            modules: modules, repository: URL(fileURLWithPath: FileManager.default.currentDirectoryPath), squad: squad
        ) { FileHandle.standardError.write(Data("bench: \($0)\n".utf8)) }
        print(MonorepoBenchmark.report(sizes))
    } catch {
        FileHandle.standardError.write(Data("courier-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if ownersOnly, let flag = arguments.firstIndex(of: "--dump"), flag + 1 < arguments.count {
    do { try Benchmarks.dumpOwnerShapes(to: URL(fileURLWithPath: arguments[flag + 1])) } catch {
        FileHandle.standardError.write(Data("courier-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if ownersOnly {
    do {
        print(
            try Benchmarks.owners(
                quick: arguments.contains("--quick"), squad: squadBinary(), json: arguments.contains("--json"),
                peer: !arguments.contains("--no-peer"),
                goCheckout: folderArgument(after: "--go-peer"), shapes: folderArgument(after: "--shapes")))
    } catch {
        FileHandle.standardError.write(Data("courier-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
let orderTracking = orderTrackingBinary()
let squad = squadBinary()
do {
    let report = try await Benchmarks.run(
        quick: arguments.contains("--quick"), orderTracking: orderTracking, squad: squad
    ) {
        FileHandle.standardError.write(Data("bench: \($0)\n".utf8))
    }
    print(arguments.contains("--json") ? report.json.text : report.table)
} catch {
    FileHandle.standardError.write(Data("courier-bench: \(error)\n".utf8))
    exit(1)
}
