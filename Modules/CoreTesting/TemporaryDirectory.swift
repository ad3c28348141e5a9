import Foundation

/// A scratch directory for tests that need real files (fixture trees, served folders); removed on release, so
/// no test leaves anything behind.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory, under the system's temporary folder.
    public let url: URL

    /// Creates a fresh, empty directory with a unique name.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `path` (relative, folders created as needed).
    public func write(_ text: String, to path: String) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Copies each of `paths` (relative) from `root` to the same place here: the few repository files a scaffold
    /// or a lint reads, without the whole tree.
    public func copy(_ paths: [String], from root: URL) throws {
        for path in paths {
            let target = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: root.appendingPathComponent(path), to: target)
        }
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
