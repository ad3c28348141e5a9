import CodeOwnership
import Foundation

/// Finds the repository's CODEOWNERS from the working directory upwards, so `components` can say who owns what.
struct CodeOwnersLookup {
    let owners: CodeOwners

    static func load(from start: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        -> CodeOwnersLookup?
    {
        var directory = start.standardizedFileURL
        while true {
            if let file = CodeOwners.locate(in: directory), let text = try? String(contentsOf: file, encoding: .utf8) {
                return CodeOwnersLookup(owners: CodeOwners(text: text))
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return nil }
            directory = parent
        }
    }

    func owner(of path: String) -> String? {
        let owners = owners.ownership(of: path).owners
        return owners.isEmpty ? nil : owners.joined(separator: " ")
    }
}
