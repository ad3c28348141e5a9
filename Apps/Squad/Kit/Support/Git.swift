import CodeOwnership
import Foundation
import SafeText

/// One file a change touches; a rename touches two paths and both count.
public struct ChangedFile: Equatable, Sendable {
    /// "A", "M", "D", "R" (rename), "C" (copy), "T" (type change).
    public let status: String
    /// Every path affected: the old and new path for a rename, one path otherwise.
    public let paths: [String]
}

/// The git questions the gate and `affected` ask, against a real repository. Output is split on NUL bytes,
/// never on Characters (a NUL followed by a combining mark is one Character), and every revision is checked
/// not to start with "-" and is passed after `--end-of-options`, so a ref can never become an option.
struct Git: Sendable {
    let shell: Shell

    /// Files changed on `head` since it forked from `base` (what a pull request shows), renames detected.
    func changes(base: String, head: String) throws(ShellError) -> [ChangedFile] {
        try Git.checkRevision(base)
        try Git.checkRevision(head)
        let output = try shell.runBytes(
            "git", ["diff", "--name-status", "-z", "-M", "--end-of-options", "\(base)...\(head)", "--"])
        var fields = Git.fields(output)[...]
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

    /// A file's text at a revision, or nil when it does not exist there (or is no file: a folder is not rules).
    func show(_ path: String, at revision: String) -> String? {
        guard (try? Git.checkRevision(revision)) != nil,
            let kind = try? shell.run("git", ["cat-file", "-t", "--end-of-options", "\(revision):\(path)"]),
            kind.trimmingCharacters(in: .whitespacesAndNewlines) == "blob"
        else { return nil }
        return try? shell.run("git", ["show", "--end-of-options", "\(revision):\(path)"])
    }

    /// Verifies that `revision` names a commit, so a typo is an error (exit 2), not an empty diff.
    func verify(_ revision: String) throws(ShellError) {
        try Git.checkRevision(revision)
        do {
            _ = try shell.run("git", ["rev-parse", "--verify", "--quiet", "--end-of-options", "\(revision)^{commit}"])
        } catch {
            throw ShellError(
                message:
                    "no such revision '\(SafeText.visible(revision))'; give a branch, tag or commit (git fetch first for origin/…)"
            )
        }
    }

    /// The full commit id `revision` names.
    func commit(_ revision: String) throws(ShellError) -> String {
        try verify(revision)
        return try shell.run("git", ["rev-parse", "--verify", "--end-of-options", "\(revision)^{commit}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Refuses a revision git could read as an option (`--output=/tmp/x`) or that holds control characters.
    static func checkRevision(_ revision: String) throws(ShellError) {
        guard !revision.isEmpty, !revision.hasPrefix("-"), !revision.unicodeScalars.contains(where: { $0.value < 0x20 })
        else {
            throw ShellError(
                message: "'\(SafeText.visible(revision))' is not a revision (it is empty, starts with '-' or holds a "
                    + "control character); give a branch, tag or commit")
        }
    }

    /// Paths with uncommitted changes (staged, unstaged or new), or nil when git cannot say.
    func uncommitted() -> [String]? {
        guard let status = try? shell.runBytes("git", ["status", "--porcelain", "-z"]) else { return nil }
        return Git.fields(status).map { String($0.unicodeScalars.dropFirst(3)) }.filter { !$0.isEmpty }
    }

    /// Every file git tracks or would track: committed, staged, and new files that are not ignored (a module
    /// `squad new` just wrote counts before anyone runs `git add`).
    func trackedFiles() throws(ShellError) -> [String] {
        try trackedFileBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The same paths as git holds them, for answers that print or look up each name exactly (`squad owners`).
    func trackedFileBytes() throws(ShellError) -> [[UInt8]] {
        try shell.runBytes("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
            .split(separator: 0).map(Array.init)
    }

    /// The CODEOWNERS GitHub would use at `revision` (first of .github/, root, docs/), with its path.
    func codeOwners(at revision: String) -> (path: String, owners: CodeOwners)? {
        for path in CodeOwners.searchPaths {
            if let text = show(path, at: revision) { return (path, CodeOwners(text: text)) }
        }
        return nil
    }

    /// Why GitHub ignores the CODEOWNERS at `revision` (3 MB or more), asked of git by size before reading it.
    func ignoredCodeOwners(at revision: String) -> String? {
        for path in CodeOwners.searchPaths {
            guard let size = try? shell.run("git", ["cat-file", "-s", "--end-of-options", "\(revision):\(path)"]) else {
                continue
            }
            return Int(size.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap {
                CodeOwners.ignoredBySize($0, path: "\(revision):\(path)")
            }
        }
        return nil
    }

    /// NUL-separated fields, split on the byte. A path that is not valid UTF-8 keeps U+FFFD where its bytes
    /// were, which the gate treats as no plain path (platform approval, fail closed).
    static func fields(_ output: Data) -> [String] {
        output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
}
