import ArgumentParsing
import CodeOwnership
import Foundation

/// `squad owners`' paths as git sees them: relative to where you are, absolute inside the repository, folders
/// standing for the tracked files under them (as hmarr/codeowners' CLI does), or read from stdin.
struct OwnersQuery {
    let root: URL
    let directory: URL
    let shell: Shell

    /// Repository-relative paths for the command line's arguments (`-` reads stdin: lines, or NUL-separated).
    func resolve(_ arguments: [String], stdin: () -> String, nulSeparated: Bool) throws -> [String] {
        // Paths from stdin are mostly what `git ls-files` printed: a line whose last segment has a dot
        // (`a/b.swift`, `.hidden`) is taken as a path without a `stat`; only a line that might name a folder
        // (no dot in its last segment, or a trailing "/") is looked at on disk.
        var given: [(path: String, listed: Bool)] = []
        for argument in arguments {
            guard argument == "-" else {
                guard !argument.isEmpty else {
                    throw UsageError(message: "'' is not a path; give a file or folder inside the repository")
                }
                given.append((argument, false))
                continue
            }
            // Split on bytes, not Characters: `git ls-files | squad owners -` hands over 100,000 lines.
            let separator = UInt8(ascii: nulSeparated ? "\0" : "\n")
            for line in stdin().utf8.split(separator: separator) {
                var line = Substring(line)
                if !nulSeparated, line.utf8.last == UInt8(ascii: "\r") { line = line.dropLast() }
                given.append((String(line), true))
            }
        }
        let rootPath = root.path
        let base = directory.path
        var tracked: [String]?
        var paths: [String] = []
        for (path, listed) in given where !path.isEmpty {
            // From the root, a plain relative path ("a/b.swift": no "." or ".." or empty segment) is already what
            // git sees; only the others are made absolute and normalised.
            if base == rootPath, OwnersQuery.isPlain(path) {
                if !path.hasSuffix("/"),
                    listed && OwnersQuery.looksLikeFile(path) || !OwnersQuery.isDirectory(rootPath + "/" + path)
                {
                    paths.append(path)
                    continue
                }
            }
            let absolute = OwnersQuery.standardize(path.hasPrefix("/") ? path : base + "/" + path)
            let atRoot = PathBytes.same(absolute, rootPath)
            guard atRoot || PathBytes.hasPrefix(absolute, rootPath + "/") else {
                throw ShellError(message: "'\(path)' is outside the repository (\(rootPath)); give a path inside it")
            }
            let relative = atRoot ? "" : String(Substring(absolute.utf8.dropFirst(rootPath.utf8.count + 1)))
            let folder =
                path.hasSuffix("/") || relative.isEmpty
                || !(listed && OwnersQuery.looksLikeFile(path)) && OwnersQuery.isDirectory(absolute)
            guard folder else {
                paths.append(relative)
                continue
            }
            if tracked == nil { tracked = try Git(shell: shell).trackedFiles() }
            let prefix = relative.isEmpty ? "" : relative + "/"
            let inside = (tracked ?? []).filter { PathBytes.hasPrefix($0, prefix) }
            guard !inside.isEmpty else {
                // A submodule is a folder on disk but one tracked path to git: answer it as that path.
                if (tracked ?? []).contains(where: { PathBytes.same($0, relative) }) {
                    paths.append(relative)
                    continue
                }
                throw ShellError(message: "folder '\(path)' holds no tracked files; give a file or a folder git tracks")
            }
            paths += inside
        }
        return paths
    }

    /// The tracked files `team` owns, or (nil) that nobody owns, one a line.
    func listOwned(by team: String?, owners: CodeOwners, output: inout String, errors: inout String) throws -> Int32 {
        if let team, !team.hasPrefix("@"), !team.contains("@") {
            errors += "warning: '\(team)' is not an owner name; did you mean '@\(team)'?\n"
        }
        return try listOwned(by: team, owners: owners, output: &output)
    }

    /// The tracked files `team` owns, or (nil) that nobody owns, one a line.
    func listOwned(by team: String?, owners: CodeOwners, output: inout String) throws -> Int32 {
        for file in try Git(shell: shell).trackedFiles() {
            let found = owners.ownership(of: file).owners
            let matches = team.map { found.contains($0) } ?? found.isEmpty
            if matches { output += file + "\n" }
        }
        return 0
    }

    /// Whether `path` is relative and has no ".", ".." or empty segment (a trailing "/" aside).
    static func isPlain(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/") else { return false }
        var length = 0
        var onlyDots = true
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if length == 0 || onlyDots && length <= 2 { return false }
                length = 0
                onlyDots = true
            } else {
                length += 1
                if byte != UInt8(ascii: ".") { onlyDots = false }
            }
        }
        return length == 0 || !(onlyDots && length <= 2)
    }

    /// Whether the last segment has a dot, as file names listed by git mostly do (`x.swift`, `.gitignore`).
    static func looksLikeFile(_ path: String) -> Bool {
        for byte in path.utf8.reversed() {
            if byte == UInt8(ascii: ".") { return true }
            if byte == UInt8(ascii: "/") { return false }
        }
        return false
    }

    /// Whether `path` itself is a folder on disk. A symbolic link is not, whatever it points to: git tracks the
    /// link as one path, and that path is what CODEOWNERS owns.
    static func isDirectory(_ path: String) -> Bool {
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        return type == .typeDirectory
    }

    /// "/a/b/../c/./d" → "/a/c/d", without touching the file system.
    static func standardize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.utf8.split(separator: UInt8(ascii: "/")) {
            if part.elementsEqual(".".utf8) { continue }
            if part.elementsEqual("..".utf8) {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(Substring(part))
        }
        return "/" + parts.joined(separator: "/")
    }
}
