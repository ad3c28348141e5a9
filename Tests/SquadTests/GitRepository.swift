import CoreTesting
import Foundation
import SquadKit

/// A real temporary git repository for gate and affected tests.
final class GitRepository: @unchecked Sendable {
    let root: URL

    init() async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("squad-repo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try await git("init", "-q", "-b", "main")
        try await git("config", "user.email", "test@example.com")
        try await git("config", "user.name", "Test")
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    @discardableResult
    func git(_ arguments: String...) async throws -> String {
        let result = try await ProcessRunner.run("git", Array(arguments), directory: root, limit: .seconds(30))
        guard result.status == 0 else { throw ShellError(message: "git \(arguments): \(result.stderr)") }
        return result.stdout
    }

    func write(_ path: String, _ text: String = "content\n") throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func commit(_ message: String) async throws {
        try await git("add", "-A")
        try await git("commit", "-q", "-m", message)
    }

    /// A repository whose one commit holds a package of one target, `A`, and `.ci/checks` reading `checks`: what
    /// `squad check` needs.
    static func package(checks: String) async throws -> GitRepository {
        let repo = try await GitRepository()
        try repo.write(
            "Package.swift",
            "// swift-tools-version: 6.0\nimport PackageDescription\n"
                + "let package = Package(name: \"P\", targets: [.target(name: \"A\", path: \"Modules/A\")])\n")
        try repo.write("Modules/A/A.swift", "public let a = 1\n")
        try repo.write(".ci/checks", checks)
        try await repo.commit("base")
        return repo
    }

    /// Runs squad in-process on a thread of its own: its git calls block, and the test pool has two threads.
    func squad(_ arguments: [String], stdin: String = "", in folder: String? = nil) async -> (
        status: Int32, output: String, errors: String
    ) {
        await squad(arguments, stdinBytes: Array(stdin.utf8), in: folder)
    }

    /// The same with standard input given as bytes (names git holds that are not UTF-8).
    func squad(_ arguments: [String], stdinBytes stdin: [UInt8], in folder: String? = nil) async -> (
        status: Int32, output: String, errors: String
    ) {
        let directory = folder.map { root.appendingPathComponent($0) } ?? root
        return await OwnThread.run {
            var output = ""
            var errors = ""
            let status = SquadApp.run(
                arguments, directory: directory, stdin: { stdin }, output: &output, errors: &errors)
            return (status, output, errors)
        }
    }
}
