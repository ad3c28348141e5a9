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
        var given: [(path: String, listed: Bool, plainFile: Bool)] = []
        for argument in arguments {
            guard argument == "-" else {
                guard !argument.isEmpty else {
                    throw UsageError(message: "'' is not a path; give a file or folder inside the repository")
                }
                given.append((argument, false, false))
                continue
            }
            // Split on bytes, not Characters, in one pass that also tells a plain file path (relative, no ".",
            // ".." or empty segment, a dot in its last segment): `git ls-files | squad owners -` hands over
            // 100,000 lines, and those take no further work.
            var text = stdin()
            let separator = UInt8(ascii: nulSeparated ? "\0" : "\n")
            text.withUTF8 { bytes in
                var start = 0
                for index in 0...bytes.count where index == bytes.count || bytes[index] == separator {
                    var end = index
                    if !nulSeparated, end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                    if end > start {
                        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                        given.append((String(decoding: line, as: UTF8.self), true, OwnersQuery.isPlainFile(line)))
                    }
                    start = index + 1
                }
            }
        }
        let rootPath = root.path
        let base = directory.path
        var tracked: [String]?
        var paths: [String] = []
        let atRoot = base == rootPath
        for (path, listed, plainFile) in given where !path.isEmpty {
            if atRoot && plainFile {
                paths.append(path)
                continue
            }
            // From the root, a plain relative path ("a/b.swift": no "." or ".." or empty segment) is already what
            // git sees; only the others are made absolute and normalised.
            if atRoot, OwnersQuery.isPlain(path) {
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

    /// ``isPlain(_:)`` and ``looksLikeFile(_:)`` at once, on a listed line's bytes.
    static func isPlainFile(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, first != UInt8(ascii: "/"), bytes.last != UInt8(ascii: "/") else { return false }
        var length = 0
        var onlyDots = true
        var dotInSegment = false
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if length == 0 || onlyDots && length <= 2 { return false }
                (length, onlyDots, dotInSegment) = (0, true, false)
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dotInSegment = true } else { onlyDots = false }
            }
        }
        return !(onlyDots && length <= 2) && dotInSegment
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
