import CodeOwnership
import Foundation

/// `squad new NAME --owner OWNER`: a module that builds, tests, previews and is owned, in one command.
public struct Scaffold: Sendable {
    let root: URL
    let name: String
    let owner: String

    /// Checks the name and owner before anything is written.
    public init(root: URL, name: String, owner: String) throws(ShellError) {
        guard let first = name.first, first.isUppercase, first.isASCII, (2...30).contains(name.count),
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else {
            throw ShellError(
                message: "module name '\(name)' must be UpperCamelCase ASCII letters and digits, 2 to 30 long")
        }
        guard CodeOwners.isValidOwner(owner) else {
            throw ShellError(message: "owner '\(owner)' is not @user, @org/team or an email")
        }
        guard !FileManager.default.fileExists(atPath: root.appendingPathComponent("Modules/\(name)").path) else {
            throw ShellError(message: "Modules/\(name) already exists; pick another name")
        }
        self.root = root
        self.name = name
        self.owner = owner
    }

    var id: String { name.lowercased() }
    static let fixtureFolder = "Apps/OrderTracking/Kit/Fixtures/api/orders"

    /// Writes every file and edits the three shared lists (package table, host registry, CODEOWNERS).
    public func run() throws(ShellError) -> [String] {
        let package = try read("Package.swift")
        let registry = try read("Apps/OrderTracking/Kit/Registry.swift")
        let codeowners = try read("CODEOWNERS")
        guard package.contains("    // squad:new-module"), registry.contains("        // squad:new-registration") else {
            throw ShellError(message: "Package.swift or Registry.swift lost its 'squad:new-…' marker line; restore it")
        }
        var imports = registry.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let importLines = imports.indices.filter { imports[$0].hasPrefix("import ") }
        let insertAt = importLines.first { imports[$0] > "import \(name)" } ?? (importLines.last.map { $0 + 1 } ?? 0)
        imports.insert("import \(name)", at: insertAt)
        let files: [(String, String)] = [
            ("Modules/\(name)/\(name)Component.swift", component),
            ("Modules/\(name)/README.md", readme),
            ("Tests/\(name)Tests/\(name)Tests.swift", tests),
            ("\(Scaffold.fixtureFolder)/1234/\(id).json", "{\"title\": \"Hello from \(name)\"}\n"),
            (
                "Package.swift",
                package.replacingOccurrences(
                    of: "    // squad:new-module", with: "    (\"\(name)\", [\"Core\"]),\n    // squad:new-module")
            ),
            (
                "Apps/OrderTracking/Kit/Registry.swift",
                imports.joined(separator: "\n").replacingOccurrences(
                    of: "        // squad:new-registration",
                    with: "        \(name)Module.registration,\n        // squad:new-registration")
            ),
            (
                "CODEOWNERS",
                codeowners + (codeowners.hasSuffix("\n") ? "" : "\n")
                    + "\n/Modules/\(name)/ \(owner)\n/Tests/\(name)Tests/ \(owner)\n/\(Scaffold.fixtureFolder)/*/\(id).json \(owner)\n"
            ),
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url, options: .atomic)
            } catch { throw ShellError(message: "cannot write \(path): \(error.localizedDescription)") }
        }
        return files.map(\.0)
    }

    private func read(_ path: String) throws(ShellError) -> String {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else {
            throw ShellError(message: "cannot read \(path); run squad new from the repository root")
        }
        return String(decoding: data, as: UTF8.self)
    }

    private var component: String {
        """
        import Core
        import Foundation

        /// What the \(name) card shows; decoded straight from the endpoint's JSON.
        public struct \(name)Info: Sendable, Equatable, Codable {
            /// The headline the endpoint sends.
            public let title: String
        }

        /// The \(name) squad's card: it fetches its own endpoint, decodes its own payload and draws its own card.
        public struct \(name)Component: Component {
            /// The id layouts use.
            public static let id: ComponentID = "\(id)"

            /// Creates the component.
            public init() {}

            /// Fetches `orders/<id>/\(id).json` (or decodes the inline slice).
            public func load(_ context: ComponentContext) async throws -> \(name)Info {
                let data = try await context.payloadOrFetch(try Endpoint("orders", try context.id("order"), "\(id).json"))
                let info = try JSONDecoder().decode(\(name)Info.self, from: data)
                guard !info.title.isEmpty else { throw Failure("\(id).json: title is empty") }
                return info
            }

            /// Skeleton, content, or nothing (the host hides a failed card).
            public func card(for state: ComponentState<\(name)Info>, context: ComponentContext) -> Block? {
                switch state {
                case .loading: .skeleton(title: "\(name)", lines: 1)
                case .info(let info): Block(title: "\(name)", rows: [Row(info.title)])
                case .failed: nil
                }
            }
        }

        /// \(name)'s face to hosts: the registry line.
        public enum \(name)Module {
            /// The line a host adds to its registry.
            public static let registration = ComponentRegistration(
                module: "\(name)", endpoint: "orders/{order}/\(id).json"
            ) { \(name)Component() }
        }

        """
    }

    private var readme: String {
        """
        # \(name)

        Owner: `\(owner)`. Depends on Core only.

        **Shows** (component id `\(id)`): a titled card with the endpoint's `title`.

        **Endpoint**: `orders/<id>/\(id).json` — `{"title": "Hello from \(name)"}`

        **Input interface**: `\(name)Module.registration` (one registry line). **Output interface**: `hide` on failure.

        **Preview alone**: `swift run order-tracking preview \(id)`. **Test alone**: `swift test --filter \(name)Tests`.

        """
    }

    private var tests: String {
        """
        \(["Core", "CoreTesting", "Testing", name].sorted().map { "import \($0)" }.joined(separator: "\n"))

        @Suite struct \(name)Tests {
            @Test func loadingThenTheCard() async throws {
                let harness = ComponentHarness(
                    \(name)Component(), ids: ["order": "1"], answers: ["orders/1/\(id).json": .json(#"{"title": "Hi"}"#)])
                await harness.load()
                harness.expectPhases([.loading, .info])
                #expect(harness.card().contains("│ Hi "))
            }

            @Test func aMissingEndpointHides() async throws {
                let harness = ComponentHarness(\(name)Component(), ids: ["order": "1"])
                await harness.load()
                harness.expectHidden(because: "orders/1/\(id).json: not found (404)")
            }
        }

        """
    }
}
