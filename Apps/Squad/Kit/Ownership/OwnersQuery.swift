import ArgumentParsing
import CodeOwnership
import Foundation

/// `squad owners`' paths as git sees them: relative to where you are, absolute inside the repository, folders
/// standing for the tracked files under them (as hmarr/codeowners' CLI does), or read from stdin.
struct OwnersQuery {
    let root: URL
    let directory: URL
    let shell: Shell

    /// Repository-relative paths, in order: stdin's plain file lines stay where they are in the text read (a
    /// hundred thousand small strings would cost more than their lookups), everything else as a string.
    struct Paths {
        enum Entry {
            case line(Range<Int>)
            case path(String)
        }
        var text = ""
        var entries: [Entry] = []

        /// Calls `body` with the bytes of each path in `range`, and whether they are printable ASCII without `"`
        /// or `\\` (to be printed as they are).
        func forEach(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>, _ plain: Bool) -> Void) {
            var text = text
            text.withUTF8 { lines in
                for entry in entries[range] {
                    switch entry {
                    case .line(let range): body(UnsafeBufferPointer(rebasing: lines[range]), true)
                    case .path(var path): path.withUTF8 { body($0, false) }
                    }
                }
            }
        }
    }

    /// Repository-relative paths for the command line's arguments (`-` reads stdin: lines, or NUL-separated).
    func resolve(_ arguments: [String], stdin: () throws -> String, nulSeparated: Bool) throws -> Paths {
        let rootPath = root.path
        let base = directory.path
        let atRoot = PathBytes.same(base, rootPath)
        var resolved = Paths()
        var seen = Seen(rootPath: rootPath, base: base)
        for argument in arguments {
            guard argument == "-" else {
                guard !argument.isEmpty else {
                    throw UsageError(message: "'' is not a path; give a file or folder inside the repository")
                }
                resolved.entries += try resolve(argument, listed: false, seen: &seen).map(Paths.Entry.path)
                continue
            }
            // Split on bytes, not Characters, in one pass that also tells a plain file path (relative, no ".",
            // ".." or empty segment, a dot in its last segment): `git ls-files | squad owners -` hands over
            // 100,000 lines, and from the root those take no further work. Paths are read from stdin once.
            guard resolved.text.isEmpty else { continue }
            var text = try stdin()
            let separator = UInt8(ascii: nulSeparated ? "\0" : "\n")
            var others: [(index: Int, path: String)] = []
            text.withUTF8 { bytes in
                var start = 0
                while start <= bytes.count {
                    let index = OwnersQuery.firstIndex(of: separator, in: bytes, from: start)
                    var end = index
                    if !nulSeparated, end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                    if end > start {
                        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                        // A dotless name ("Makefile") is a file unless a folder of that name is on disk.
                        switch atRoot ? OwnersQuery.plainLine(line) : nil {
                        case .file?:
                            resolved.entries.append(.line(start..<end))
                        case .dotless? where !OwnersQuery.isFolder(line, under: rootPath, seen: &seen.folders):
                            resolved.entries.append(.line(start..<end))
                        default:
                            others.append((resolved.entries.count, String(decoding: line, as: UTF8.self)))
                            resolved.entries.append(.path(""))
                        }
                    }
                    start = index + 1
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

    /// The repository-relative paths one given path stands for: itself, or the tracked files in a folder.
    /// What one resolution has looked up already: git's file list, and which folders exist on disk.
    private struct Seen {
        var tracked: [String]?
        var folders: [[UInt8]: Bool] = [:]
        /// The repository's and the working folder's paths, worked out once: `URL.path` is slow enough to
        /// double the cost of a listing's dotless lines when asked for each.
        let rootPath: String
        let base: String
    }

    private func resolve(_ path: String, listed: Bool, seen: inout Seen) throws -> [String] {
        let rootPath = seen.rootPath
        let base = seen.base
        // From the root, a plain relative path ("a/b.swift": no "." or ".." or empty segment) is already what
        // git sees; only the others are made absolute and normalised.
        if PathBytes.same(base, rootPath), OwnersQuery.isPlain(path) {
            if !path.hasSuffix("/"),
                listed && OwnersQuery.looksLikeFile(path)
                    || !OwnersQuery.isFolder(path, under: rootPath, seen: &seen.folders)
            {
                return [path]
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
        guard folder else { return [relative] }
        let tracked = try seen.tracked ?? Git(shell: shell).trackedFiles()
        seen.tracked = tracked
        let prefix = relative.isEmpty ? "" : relative + "/"
        let inside = tracked.filter { PathBytes.hasPrefix($0, prefix) }
        guard !inside.isEmpty else {
            // A submodule is a folder on disk but one tracked path to git: answer it as that path.
            if tracked.contains(where: { PathBytes.same($0, relative) }) { return [relative] }
            throw ShellError(message: "folder '\(path)' holds no tracked files; give a file or a folder git tracks")
        }
        return inside
    }

    /// The tracked files `team` owns, or (nil) that nobody owns, one a line.
    func listOwned(by team: String?, owners: CodeOwners, print: SquadOutput) throws -> Int32 {
        if let team, !team.hasPrefix("@"), !team.contains("@") {
            print.err("warning: '\(team)' is not an owner name; did you mean '@\(team)'?\n")
        }
        // Printed at once: a line at a time would be a write per tracked file.
        var output = ""
        for file in try Git(shell: shell).trackedFiles() {
            let found = owners.ownership(of: file).owners
            let matches = team.map { found.contains($0) } ?? found.isEmpty
            if matches { output += file + "\n" }
        }
        print.out(output)
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

    /// What a listed line is when ``isPlain(_:)`` holds for it and it is printable ASCII other than `"` and
    /// `\\` (so it is printed as it is, in text and in JSON).
    enum PlainLine {
        /// Its last segment has a dot (``looksLikeFile(_:)``).
        case file
        /// Its last segment has none: a file, unless a folder of that name is on disk.
        case dotless
    }

    /// Both checks at once, on a listed line's bytes; nil when the line needs resolving as a path.
    static func plainLine(_ bytes: UnsafeBufferPointer<UInt8>) -> PlainLine? {
        guard let first = bytes.first, first != UInt8(ascii: "/"), bytes.last != UInt8(ascii: "/") else { return nil }
        var length = 0
        var onlyDots = true
        var dotInSegment = false
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if length == 0 || onlyDots && length <= 2 { return nil }
                (length, onlyDots, dotInSegment) = (0, true, false)
            } else {
                if byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return nil }
                length &+= 1
                if byte == UInt8(ascii: ".") { dotInSegment = true } else { onlyDots = false }
            }
        }
        guard !(onlyDots && length <= 2) else { return nil }
        return dotInSegment ? .file : .dotless
    }

    /// Where the next `byte` is at or after `start` (the end when there is none), found by the C library's
    /// vectorised search: stdin holds a hundred thousand lines.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count else { return bytes.count }
        guard let found = memchr(base + start, Int32(byte), bytes.count - start) else { return bytes.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Whether the last segment has a dot, as file names listed by git mostly do (`x.swift`, `.gitignore`).
    static func looksLikeFile(_ path: String) -> Bool {
        for byte in path.utf8.reversed() {
            if byte == UInt8(ascii: ".") { return true }
            if byte == UInt8(ascii: "/") { return false }
        }
        return false
    }

    /// Whether the plain relative `path` is a folder under `root`, its parent folders looked at first and each
    /// once: a listing's dotless names ("Makefile", "LICENSE") then cost a `stat` only where their folder is.
    static func isFolder(_ path: String, under root: String, seen: inout [[UInt8]: Bool]) -> Bool {
        var path = path
        return path.withUTF8 { isFolder($0, under: root, seen: &seen) }
    }

    /// The same for a listed line's bytes, read in place.
    static func isFolder(_ path: UnsafeBufferPointer<UInt8>, under root: String, seen: inout [[UInt8]: Bool]) -> Bool {
        for (index, byte) in path.enumerated() where byte == UInt8(ascii: "/") {
            let parent = Array(path[..<index])
            let known = seen[parent] ?? isDirectory(root + "/" + String(decoding: parent, as: UTF8.self))
            seen[parent] = known
            if !known { return false }
        }
        return isDirectory(root + "/" + String(decoding: path, as: UTF8.self))
    }

    /// Whether `path` itself is a folder on disk. A symbolic link is not, whatever it points to: git tracks the
    /// link as one path, and that path is what CODEOWNERS owns. One `lstat`: a listing's dotless names each
    /// take one, and Foundation's attribute dictionary cost ten times as much.
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
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
