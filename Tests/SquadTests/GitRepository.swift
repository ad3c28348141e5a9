import CoreTesting
import Foundation
import SquadKit

/// A real temporary git repository for gate and affected tests.
final class GitRepository: @unchecked Sendable {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("squad-repo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try git("init", "-q", "-b", "main")
        try git("config", "user.email", "test@example.com")
        try git("config", "user.name", "Test")
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    @discardableResult
    func git(_ arguments: String...) throws -> String {
        let result = try ProcessRunner.run("git", Array(arguments), directory: root, limit: .seconds(30))
        guard result.status == 0 else { throw ShellError(message: "git \(arguments): \(result.stderr)") }
        return result.stdout
    }

    func write(_ path: String, _ text: String = "content\n") throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func commit(_ message: String) throws {
        try git("add", "-A")
        try git("commit", "-q", "-m", message)
    }

    func squad(_ arguments: [String], stdin: String = "", in folder: String? = nil) -> (
        status: Int32, output: String, errors: String
    ) {
        var output = ""
        var errors = ""
        let directory = folder.map { root.appendingPathComponent($0) } ?? root
        let status = SquadApp.run(arguments, directory: directory, stdin: { stdin }, output: &output, errors: &errors)
        return (status, output, errors)
    }
}
