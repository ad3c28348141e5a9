import Foundation

/// What kind each module is, read from the tables `Package.swift` generates its targets from (`modules`,
/// `pluginPoints`, `interfaces`, `sharedLibraries`, `adapters`, `systemBindings`, `testSupport`), so the dependency
/// rule and the manifest can never disagree about a module (they once did about CoreHTTP).
public struct ManifestKinds: Sendable, Equatable {
    /// The kernel: the one squad-table module with no dependencies (Core).
    public var kernel: String
    /// Squad modules, the kernel included.
    public var modules: Set<String>
    /// Squad modules others may plug into.
    public var pluginPoints: Set<String>
    /// Squads' interface targets (`PaymentsInterface`): the events a squad publishes and their payloads, which
    /// other squads import instead of the squad's module.
    public var interfaces: Set<String>
    /// Libraries several targets need; each may use the kernel and the others.
    public var sharedLibraries: Set<String>
    /// Platform adapters and system bindings, each with exactly what it may use; only apps import them.
    public var adapters: [String: Set<String>]
    /// Libraries only tests use.
    public var testSupport: Set<String>

    /// Kinds given directly (tests).
    public init(
        kernel: String, modules: Set<String>, pluginPoints: Set<String>, sharedLibraries: Set<String>,
        adapters: [String: Set<String>], testSupport: Set<String>, interfaces: Set<String> = []
    ) {
        (self.kernel, self.modules, self.pluginPoints, self.interfaces) = (kernel, modules, pluginPoints, interfaces)
        (self.sharedLibraries, self.adapters, self.testSupport) = (sharedLibraries, adapters, testSupport)
    }

    /// Why a manifest's tables cannot be read.
    public struct Unreadable: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is missing or wrong, and what to write.
        public let description: String
    }

    /// The kinds in `Package.swift`'s text.
    public static func read(_ manifest: String) throws(Unreadable) -> ManifestKinds {
        let modules = try pairs("modules", in: manifest)
        let kernels = modules.filter { $0.dependencies.isEmpty }.map(\.name)
        guard kernels.count == 1 else {
            throw Unreadable(
                description: "Package.swift: the 'modules' table needs exactly one module without dependencies "
                    + "(the kernel), found \(kernels.count)")
        }
        var adapters: [String: Set<String>] = [:]
        for adapter in try pairs("adapters", in: manifest) { adapters[adapter.name] = Set(adapter.dependencies) }
        for binding in try names("systemBindings", in: manifest) { adapters[binding] = [] }
        return ManifestKinds(
            kernel: kernels[0], modules: Set(modules.map(\.name)),
            pluginPoints: Set(try names("pluginPoints", in: manifest)),
            sharedLibraries: Set(try pairs("sharedLibraries", in: manifest).map(\.name)), adapters: adapters,
            testSupport: Set(try pairs("testSupport", in: manifest).map(\.name)),
            interfaces: manifest.contains("\nlet interfaces:")
                ? Set(try names("interfaces", in: manifest).map { $0 + "Interface" }) : [])
    }

    private static let pair = try! NSRegularExpression(pattern: #"\(\s*"(\w+)"\s*,\s*\[([^\]]*)\]\s*\)"#)
    private static let quoted = try! NSRegularExpression(pattern: #""(\w+)""#)

    /// `("Name", ["Dep", …])` entries of table `name`.
    private static func pairs(_ name: String, in manifest: String) throws(Unreadable) -> [(
        name: String, dependencies: [String]
    )] {
        let body = try table(name, in: manifest)
        return matches(pair, in: body).map { ($0[1], matches(quoted, in: $0[2]).map { $0[1] }) }
    }

    /// `"Name"` entries of table `name`.
    private static func names(_ name: String, in manifest: String) throws(Unreadable) -> [String] {
        matches(quoted, in: try table(name, in: manifest)).map { $0[1] }
    }

    /// The text between the brackets of `let name… = [ … ]` (brackets balanced).
    private static func table(_ name: String, in manifest: String) throws(Unreadable) -> String {
        guard let start = manifest.range(of: "\nlet \(name):"),
            let open = manifest[start.upperBound...].range(of: "= [")
        else {
            throw Unreadable(
                description: "Package.swift: no 'let \(name)' table; squad lint reads each module's kind from it")
        }
        var depth = 0
        var index = manifest.index(before: open.upperBound)
        while index < manifest.endIndex {
            if manifest[index] == "[" { depth += 1 }
            if manifest[index] == "]" {
                depth -= 1
                if depth == 0 { return String(manifest[open.upperBound..<index]) }
            }
            index = manifest.index(after: index)
        }
        throw Unreadable(description: "Package.swift: the '\(name)' table is not closed")
    }

    private static func matches(_ expression: NSRegularExpression, in text: String) -> [[String]] {
        expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (0..<match.numberOfRanges).map { Range(match.range(at: $0), in: text).map { String(text[$0]) } ?? "" }
        }
    }
}
