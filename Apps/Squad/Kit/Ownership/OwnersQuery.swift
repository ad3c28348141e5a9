import ArgumentParsing
import CodeOwnership
import Foundation

/// `squad owners`' paths as git sees them: relative to where you are, absolute inside the repository, folders
/// standing for the tracked files under them (as hmarr/codeowners' CLI does), or read from stdin.
struct OwnersQuery {
    let root: URL
    let directory: URL
    let shell: Shell

    /// Repository-relative paths, in order, as bytes: stdin's plain file lines stay where they are in the bytes
    /// read (a hundred thousand small arrays would cost more than their lookups), everything else on its own.
    struct Paths {
        enum Entry {
            /// Printable ASCII without `"` or `\\`, printed as it is.
            case line(Range<Int>)
            case path([UInt8])
        }
        var text: [UInt8] = []
        var entries: [Entry] = []

        /// Calls `body` with the bytes of each path in `range`, and whether they are printable ASCII without `"`
        /// or `\\` (to be printed as they are).
        func forEach(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>, _ plain: Bool) -> Void) {
            text.withUnsafeBufferPointer { lines in
                for entry in entries[range] {
                    switch entry {
                    case .line(let range): body(UnsafeBufferPointer(rebasing: lines[range]), true)
                    case .path(let path): path.withUnsafeBufferPointer { body($0, false) }
                    }
                }
            }
        }
    }

    /// Repository-relative paths for the command line's arguments (`-` reads stdin: lines as git prints them,
    /// quoted names unquoted, or NUL-separated).
    func resolve(_ arguments: [String], stdin: () throws -> [UInt8], nulSeparated: Bool) throws -> Paths {
        var resolved = Paths()
        var seen = Seen(rootPath: Array(root.path.utf8), base: Array(directory.path.utf8))
        let atRoot = seen.rootPath == seen.base
        var readStandardInput = false
        for argument in arguments {
            guard argument == "-" else {
                guard !argument.isEmpty else {
                    throw UsageError(message: "'' is not a path; give a file or folder inside the repository")
                }
                resolved.entries += try resolve(Array(argument.utf8), listed: false, seen: &seen).map(Paths.Entry.path)
                continue
            }
            // Split on bytes, not Characters, in one pass that also tells a plain file path (relative, no ".",
            // ".." or empty segment, a dot in its last segment): `git ls-files | squad owners -` hands over
            // 100,000 lines, and from the root those take no further work. Paths are read from stdin once.
            guard !readStandardInput else { continue }
            readStandardInput = true
            let text = try stdin()
            let separator = UInt8(ascii: nulSeparated ? "\0" : "\n")
            var others: [(index: Int, path: [UInt8])] = []
            try text.withUnsafeBufferPointer { bytes in
                var start = 0
                var number = 0
                while start < bytes.count {
                    let index = OwnersQuery.firstIndex(of: separator, in: bytes, from: start)
                    number += 1
                    var end = index
                    if !nulSeparated, end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                    defer { start = index + 1 }
                    guard end > start else { continue }
                    let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                    if !nulSeparated, line[0] == GitPathLines.quote {
                        let path = try GitPathLines.unquote(
                            line, number: number, source: "standard input",
                            hint: "list the paths as git ls-files prints them, or NUL-separated with -z")
                        others.append((resolved.entries.count, path))
                        resolved.entries.append(.path([]))
                        continue
                    }
                    // A dotless name ("Makefile") is a file unless a folder of that name is on disk.
                    switch atRoot ? PlainLine(line) : nil {
                    case .file?:
                        resolved.entries.append(.line(start..<end))
                    case .dotless? where !OwnersQuery.isFolder(line, under: seen.rootPath, seen: &seen.folders):
                        resolved.entries.append(.line(start..<end))
                    default:
                        others.append((resolved.entries.count, Array(line)))
                        resolved.entries.append(.path([]))
                    }
                }
            }
            resolved.text = text
            // The other lines may stand for several files (a folder): spliced in from the last, so the
            // positions of earlier ones stay put.
            for (index, path) in others.reversed() {
                resolved.entries.replaceSubrange(
                    index...index, with: try resolve(path, listed: true, seen: &seen).map(Paths.Entry.path))
            }
        }
        return resolved
    }

    /// What one resolution has looked up already: git's file list, and which folders exist on disk.
    private struct Seen {
        var tracked: [[UInt8]]?
        var folders: [[UInt8]: Bool] = [:]
        /// The repository's and the working folder's paths, worked out once: `URL.path` is slow enough to
        /// double the cost of a listing's dotless lines when asked for each.
        let rootPath: [UInt8]
        let base: [UInt8]
    }

    /// The repository-relative paths one given path stands for: itself, or the tracked files in a folder.
    private func resolve(_ path: [UInt8], listed: Bool, seen: inout Seen) throws -> [[UInt8]] {
        let (rootPath, base) = (seen.rootPath, seen.base)
        let slash = UInt8(ascii: "/")
        // From the root, a plain relative path ("a/b.swift": no "." or ".." or empty segment) is already what
        // git sees; only the others are made absolute and normalised.
        if base == rootPath, OwnersQuery.isPlain(path), path.last != slash {
            if listed && OwnersQuery.looksLikeFile(path)
                || !path.withUnsafeBufferPointer({ OwnersQuery.isFolder($0, under: rootPath, seen: &seen.folders) })
            {
                return [path]
            }
        }
        let absolute = OwnersQuery.standardize(path.first == slash ? path : base + [slash] + path)
        let atRoot = absolute == rootPath
        guard atRoot || absolute.starts(with: rootPath + [slash]) else {
            throw ShellError(
                message:
                    "'\(OwnersQuery.display(path))' is outside the repository (\(root.path)); give a path inside it")
        }
        let relative = atRoot ? [] : Array(absolute.dropFirst(rootPath.count + 1))
        let folder =
            path.last == slash || relative.isEmpty
            || !(listed && OwnersQuery.looksLikeFile(path)) && OwnersQuery.isDirectory(absolute)
        guard folder else { return [relative] }
        let tracked = try seen.tracked ?? Git(shell: shell).trackedFileBytes()
        seen.tracked = tracked
        let prefix = relative.isEmpty ? [] : relative + [slash]
        let inside = tracked.filter { $0.starts(with: prefix) }
        guard !inside.isEmpty else {
            // A submodule is a folder on disk but one tracked path to git: answer it as that path.
            if tracked.contains(relative) { return [relative] }
            throw ShellError(
                message:
                    "folder '\(OwnersQuery.display(path))' holds no tracked files; give a file or a folder git tracks")
        }
        return inside
    }

    /// A path for a message: as it is when it is UTF-8 (the message's control characters are shown visibly on
    /// the way out), quoted as git quotes it when not, so the name shown is the name given.
    static func display(_ path: [UInt8]) -> String {
        if let text = String(validating: path, as: UTF8.self) { return text }
        var quoted: [UInt8] = []
        path.withUnsafeBufferPointer { PathBytes.appendQuoted($0, to: &quoted) }
        return String(decoding: quoted, as: UTF8.self)
    }

    /// The tracked files `team` owns, or (nil) that nobody owns, one a line, quoted as `git ls-files` quotes
    /// them (a name holding a newline or an escape sequence can neither fake a line nor reach the terminal).
    func listOwned(by team: String?, owners: CodeOwners, print: SquadOutput) throws -> Int32 {
        if let team, !team.hasPrefix("@"), !team.contains("@") {
            print.err("warning: '\(team)' is not an owner name; did you mean '@\(team)'?\n")
        }
        // Printed at once: a line at a time would be a write per tracked file.
        var output: [UInt8] = []
        for file in try Git(shell: shell).trackedFileBytes() {
            let found = owners.ownership(ofBytes: file).owners
            let matches = team.map { found.contains($0) } ?? found.isEmpty
            guard matches else { continue }
            file.withUnsafeBufferPointer { PathBytes.appendQuoted($0, to: &output) }
            output.append(UInt8(ascii: "\n"))
        }
        print.out(String(decoding: output, as: UTF8.self))
        return 0
    }

    /// Whether `path` is relative and has no ".", ".." or empty segment (a trailing "/" aside).
    static func isPlain(_ path: [UInt8]) -> Bool {
        guard let first = path.first, first != UInt8(ascii: "/") else { return false }
        var length = 0
        var onlyDots = true
        for byte in path {
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

    /// Where the next `byte` is at or after `start` (the end when there is none), found by the C library's
    /// vectorised search: stdin holds a hundred thousand lines.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count else { return bytes.count }
        guard let found = memchr(base + start, Int32(byte), bytes.count - start) else { return bytes.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Whether the last segment has a dot, as file names listed by git mostly do (`x.swift`, `.gitignore`).
    static func looksLikeFile(_ path: [UInt8]) -> Bool {
        for byte in path.reversed() {
            if byte == UInt8(ascii: ".") { return true }
            if byte == UInt8(ascii: "/") { return false }
        }
        return false
    }

    /// Whether the plain relative `path` is a folder under `root`, its parent folders looked at first and each
    /// once: a listing's dotless names ("Makefile", "LICENSE") then cost a `stat` only where their folder is.
    static func isFolder(_ path: UnsafeBufferPointer<UInt8>, under root: [UInt8], seen: inout [[UInt8]: Bool]) -> Bool {
        let slash = UInt8(ascii: "/")
        for (index, byte) in path.enumerated() where byte == slash {
            let parent = Array(path[..<index])
            let known = seen[parent] ?? isDirectory(root + [slash] + parent)
            seen[parent] = known
            if !known { return false }
        }
        return isDirectory(root + [slash] + path)
    }

    /// Whether `path` itself is a folder on disk. A symbolic link is not, whatever it points to: git tracks the
    /// link as one path, and that path is what CODEOWNERS owns. One `lstat` on the path's own bytes: a listing's
    /// dotless names each take one, and Foundation's attribute dictionary cost ten times as much.
    static func isDirectory(_ path: [UInt8]) -> Bool {
        guard !path.contains(0) else { return false }
        var status = stat()
        let found = (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &status) == 0 }
        }
        return found && status.st_mode & S_IFMT == S_IFDIR
    }

    /// "/a/b/../c/./d" → "/a/c/d", without touching the file system.
    static func standardize(_ path: [UInt8]) -> [UInt8] {
        var parts: [ArraySlice<UInt8>] = []
        for part in path.split(separator: UInt8(ascii: "/")) {
            if part.elementsEqual(".".utf8) { continue }
            if part.elementsEqual("..".utf8) {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return [UInt8(ascii: "/")] + Array(parts.joined(separator: [UInt8(ascii: "/")]))
    }
}
