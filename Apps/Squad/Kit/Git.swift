import CodeOwnership
import Foundation

/// One file a change touches; a rename touches two paths and both count.
public struct ChangedFile: Equatable, Sendable {
    /// "A", "M", "D", "R" (rename), "C" (copy), "T" (type change).
    public let status: String
    /// Every path affected: the old and new path for a rename, one path otherwise.
    public let paths: [String]
}

/// The git questions the gate and `affected` ask, against a real repository.
struct Git: Sendable {
    let shell: Shell

    /// Files changed on `head` since it forked from `base` (what a pull request shows), renames detected.
    func changes(base: String, head: String) throws(ShellError) -> [ChangedFile] {
        let output = try shell.run("git", ["diff", "--name-status", "-z", "-M", "\(base)...\(head)", "--"])
        var fields = output.split(separator: "\0", omittingEmptySubsequences: true).map(String.init)[...]
        var files: [ChangedFile] = []
        while let status = fields.popFirst() {
            let kind = String(status.prefix(1))
            let count = (kind == "R" || kind == "C") ? 2 : 1
            let paths = Array(fields.prefix(count))
            fields = fields.dropFirst(count)
            files.append(ChangedFile(status: kind, paths: paths))
        }
        return files
    }

    /// A file's text at a revision, or nil when it does not exist there.
    func show(_ path: String, at revision: String) -> String? {
        try? shell.run("git", ["show", "\(revision):\(path)"])
    }

    /// Verifies that `revision` names a commit, so a typo is an error (exit 2), not an empty diff.
    func verify(_ revision: String) throws(ShellError) {
        do { _ = try shell.run("git", ["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"]) } catch {
            throw ShellError(
                message: "no such revision '\(revision)'; give a branch, tag or commit (git fetch first for origin/…)")
        }
    }

    /// Paths with uncommitted changes (staged, unstaged or new), or nil when git cannot say.
    func uncommitted() -> [String]? {
        guard let status = try? shell.run("git", ["status", "--porcelain", "-z"]) else { return nil }
        return status.split(separator: "\0").map { String($0.dropFirst(3)) }.filter { !$0.isEmpty }
    }

    /// Every file git tracks or would track: committed, staged, and new files that are not ignored (a module
    /// `squad new` just wrote counts before anyone runs `git add`).
    func trackedFiles() throws(ShellError) -> [String] {
        try shell.run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]).split(separator: "\0")
            .map(String.init)
    }

    /// The CODEOWNERS GitHub would use at `revision` (first of .github/, root, docs/), with its path.
    func codeOwners(at revision: String) -> (path: String, owners: CodeOwners)? {
        for path in CodeOwners.searchPaths {
            if let text = show(path, at: revision) { return (path, CodeOwners(text: text)) }
        }
        return nil
    }
}
