import CodeOwnership
import Foundation
import SafeText

/// One file a change touches; a rename is read as a deletion and an addition, so both paths count.
public struct ChangedFile: Equatable, Sendable {
    /// "A", "M", "D" or "T" (type change).
    public let status: String
    /// The path affected.
    public let paths: [String]
}

/// The git questions the gate and `affected` ask, against a real repository. Output is split on NUL bytes,
/// never on Characters (a NUL followed by a combining mark is one Character), and every revision is checked
/// not to start with "-" and is passed after `--end-of-options`, so a ref can never become an option.
struct Git: Sendable {
    let shell: Shell

    /// Options before every command that reads a change, so no repository, user or system configuration can hide
    /// one: replace refs cannot swap the objects compared, and submodule ignore settings (`.gitmodules`,
    /// `diff.ignoreSubmodules`) are overridden on the command line, where configuration cannot reach.
    static let untouchable = ["--no-replace-objects", "-c", "diff.ignoreSubmodules=none"]

    /// The environment of the commands that walk history to where a change forked: a grafts file
    /// (`.git/info/grafts`, which `--no-replace-objects` does not turn off) could give the base's tip the head as
    /// a parent, and the change would read as empty. Git reads grafts from `GIT_GRAFT_FILE` when it is set; a path
    /// that cannot exist (its parent is a file) is read, silently, as no grafts.
    static let untouchableEnvironment = ["GIT_GRAFT_FILE": "/dev/null/no-grafts"]

    /// Files changed on `head` since it forked from `base` (what a pull request shows). Read with plumbing and
    /// explicit options: every submodule move counts, no external diff or textconv runs, renames are a deletion
    /// plus an addition (both owners), and paths are NUL-separated bytes, never quoted or relative. When the two
    /// share several best common ancestors (criss-cross merges), the change is read from each of them and every
    /// path any of them shows counts: a file equal to one fork point (a merge on the head that undid the base's
    /// change to it) is still changed by the merge, and one fork point alone would hide it.
    func changes(base: String, head: String) throws(ShellError) -> [ChangedFile] {
        try Git.checkRevision(base)
        try Git.checkRevision(head)
        let headCommit = try commit(head)
        var files: [ChangedFile] = []
        // By bytes: NFC "café" and NFD "cafe\u{301}" are two files, though Swift's strings compare them equal.
        var seen = Set<[UInt8]>()
        for forkPoint in try mergeBases(base, headCommit) {
            let output = try shell.runBytes(
                "git",
                Git.untouchable + [
                    "diff-tree", "-r", "-z", "--name-status", "--no-renames", "--ignore-submodules=none",
                    "--no-ext-diff", "--no-textconv", "--no-relative", "--end-of-options", forkPoint, headCommit, "--",
                ], environment: Git.untouchableEnvironment)
            var fields = Git.fields(output)[...]
            while let status = fields.popFirst(), let path = fields.popFirst() {
                guard seen.insert(Array(path.utf8)).inserted else { continue }
                files.append(ChangedFile(status: String(status.prefix(1)), paths: [path]))
            }
        }
        return files
    }

    /// Every best common ancestor of `base` and `head` (`git merge-base --all`), the first the one
    /// ``mergeBase(_:_:)`` names; no common history is an error.
    func mergeBases(_ base: String, _ head: String) throws(ShellError) -> [String] {
        let first = try mergeBase(base, head)
        let all = try shell.run(
            "git",
            Git.untouchable + ["merge-base", "--all", "--end-of-options", try commit(base), head],
            environment: Git.untouchableEnvironment
        ).split(whereSeparator: \.isWhitespace).map(String.init)
        return [first] + all.filter { $0 != first }
    }

    /// The commit `head` forked from `base` at, as `git diff base...head` picks it; no common history is an
    /// error (there is no change to judge, and silence must never read as "nothing changed").
    func mergeBase(_ base: String, _ head: String) throws(ShellError) -> String {
        let baseCommit = try commit(base)
        do {
            return try shell.run(
                "git", Git.untouchable + ["merge-base", "--end-of-options", baseCommit, head],
                environment: Git.untouchableEnvironment
            ).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw ShellError(
                message: "'\(SafeText.visible(base))' and '\(SafeText.visible(head))' share no history; "
                    + "give the branch the pull request targets as --base")
        }
    }

    /// A file's text at a revision, or nil when it does not exist there (or is no file: a folder is not rules).
    func show(_ path: String, at revision: String) -> String? {
        guard (try? Git.checkRevision(revision)) != nil,
            let kind = try? shell.run(
                "git", Git.untouchable + ["cat-file", "-t", "--end-of-options", "\(revision):\(path)"]),
            kind.trimmingCharacters(in: .whitespacesAndNewlines) == "blob"
        else { return nil }
        return try? shell.run("git", Git.untouchable + ["cat-file", "blob", "--end-of-options", "\(revision):\(path)"])
    }

    /// Verifies that `revision` names a commit, so a typo is an error (exit 2), not an empty diff.
    func verify(_ revision: String) throws(ShellError) {
        try Git.checkRevision(revision)
        do {
            _ = try shell.run(
                "git",
                Git.untouchable + ["rev-parse", "--verify", "--quiet", "--end-of-options", "\(revision)^{commit}"])
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
        return try shell.run(
            "git", Git.untouchable + ["rev-parse", "--verify", "--end-of-options", "\(revision)^{commit}"]
        )
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

    /// Paths with uncommitted changes (staged, unstaged or new), or nil when git cannot say. Renames are read as
    /// a deletion and an addition: a staged rename's entry is followed by the path it came from in a field of its
    /// own, which read as an entry lost its first three bytes (`docs/old.md` became `s/old.md`). New files are
    /// listed one by one (`--untracked-files=all`): by default git folds a new folder into one `Modules/New/`
    /// entry, and `squad check` then formatted none of a module `squad new` had just written.
    func uncommitted() -> [String]? {
        guard
            let status = try? shell.runBytes(
                "git", ["status", "--porcelain", "-z", "--no-renames", "--untracked-files=all"])
        else {
            return nil
        }
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
            guard
                let size = try? shell.run(
                    "git", Git.untouchable + ["cat-file", "-s", "--end-of-options", "\(revision):\(path)"])
            else {
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
