import ArgumentParsing
import CodeOwnership
import Foundation
import SafeText

/// `squad new NAME --owner OWNER [--screen SCREEN]`: a module that builds, tests, previews and is owned, in one
/// command, whose card reads the screen's subject (an order, a cart) and joins the screen's definition.
public struct Scaffold: Sendable {
    let root: URL
    let name: String
    let owner: String
    let screen: ScaffoldScreen

    /// Checks the name and owner before anything is written: a name that is malformed, reserved by the
    /// toolchain, or collides with an existing target, type, card id, endpoint, fixture or CODEOWNERS path is a
    /// usage error (exit 64) naming the clash, so nothing of another squad's is overwritten or taken over; so is
    /// a screen the host does not define (``ScaffoldScreen/read(_:root:)``).
    public init(root: URL, name: String, owner: String, screen: String = "tracking") throws {
        guard let first = name.first, first.isUppercase, first.isASCII, (2...30).contains(name.count),
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else {
            throw UsageError(
                message:
                    "module name '\(SafeText.visible(name))' must be UpperCamelCase ASCII letters and digits, 2 to 30 long"
            )
        }
        guard CodeOwners.isValidOwner(owner) else {
            throw UsageError(message: "owner '\(SafeText.visible(owner))' is not @user, @org/team or an email")
        }
        if let clash = Scaffold.clash(name: name, root: root) {
            throw UsageError(message: "cannot create module '\(name)': \(clash); pick another name")
        }
        self.screen = try ScaffoldScreen.read(screen, root: root)
        self.root = root
        self.name = name
        self.owner = owner
    }

    /// Names a module may never take: the toolchain's modules and the words Swift reserves for types.
    static let reserved: Set<String> = [
        "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
        "FoundationXML", "Dispatch", "Synchronization", "Testing", "XCTest", "Glibc", "Darwin", "Musl", "Android",
        "WinSDK", "Observation", "Distributed", "RegexBuilder", "CoreFoundation", "Cxx", "CxxStdlib", "StdlibUnittest",
        "Self", "Any", "AnyObject", "Type", "Protocol", "Sendable", "Never", "Void", "Error", "Bool", "Int", "String",
        "Array", "Dictionary", "Set", "Optional", "Result", "Task", "Actor", "Main", "Kit", "Tests", "Package",
        "PackageDescription",
    ]

    /// What `name` would collide with in the repository at `root`, or nil when it is free.
    static func clash(name: String, root: URL) -> String? {
        if reserved.contains(name) { return "'\(name)' is reserved by Swift or its toolchain" }
        let files = FileManager.default
        let id = name.lowercased()
        let targets = ["Modules", "Apps", "Tests"].flatMap {
            (try? files.contentsOfDirectory(atPath: root.appendingPathComponent($0).path)) ?? []
        }
        let appTargets = ((try? files.contentsOfDirectory(atPath: root.appendingPathComponent("Apps").path)) ?? [])
            .flatMap { [$0, $0 + "Kit", $0 + "Tests"] }
        // A squad's interface target (`PromoInterface`) has no folder of its own name: Modules/Promo/Interface.
        let modules = ((try? files.contentsOfDirectory(atPath: root.appendingPathComponent("Modules").path)) ?? [])
        let interfaceTargets = modules.filter {
            files.fileExists(atPath: root.appendingPathComponent("Modules/\($0)/Interface").path)
        }.map { $0 + "Interface" }
        for mine in [name, name + "Tests", name + "Interface"] {
            for taken in Set(targets + appTargets + interfaceTargets).sorted()
            where mine.lowercased() == taken.lowercased() {
                return
                    "a target or folder named '\(taken)' exists (module \(name) adds targets \(name) and \(name)Tests)"
            }
        }
        // The ids, endpoints and fixtures already in use: every demo order's files (in the squads' own trees)
        // and every declared card id.
        for tree in modules.sorted().map({ "Modules/\($0)/Fixtures/orders" }) + [fixtureFolder] {
            let orders = root.appendingPathComponent(tree)
            for order in ((try? files.contentsOfDirectory(atPath: orders.path)) ?? []).sorted() {
                for file in (try? files.contentsOfDirectory(atPath: orders.appendingPathComponent(order).path)) ?? []
                where file.lowercased() == "\(id).json" {
                    return "the fixture \(tree)/\(order)/\(file) (an endpoint of another card) exists"
                }
            }
        }
        let sources = swiftSources(under: root.appendingPathComponent("Modules"))
        let types = [name, "\(name)Info", "\(name)Component", "\(name)Module"]
        for (path, text) in sources {
            if text.contains("ComponentID = \"\(id)\"") { return "the card id '\(id)' is taken in \(path)" }
            for type in types {
                for keyword in ["struct", "enum", "class", "protocol", "actor", "typealias"]
                where text.contains("\(keyword) \(type) ") || text.contains("\(keyword) \(type):")
                    || text.contains("\(keyword) \(type)<")
                {
                    return "the type \(type), which the scaffold declares, exists in \(path)"
                }
            }
        }
        let codeowners = (try? String(contentsOf: root.appendingPathComponent("CODEOWNERS"), encoding: .utf8)) ?? ""
        for path in ["/Modules/\(name)/", "/Tests/\(name)Tests/", "/\(id).json"] where codeowners.contains(path) {
            return "CODEOWNERS already names '\(path)'"
        }
        return idInUse(id, root: root)
    }

    private static func swiftSources(under folder: URL) -> [(String, String)] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [(String, String)] = []
        while let next = walker.nextObject() as? String {
            guard next.hasSuffix(".swift"),
                let text = try? String(contentsOf: folder.appendingPathComponent(next), encoding: .utf8)
            else { continue }
            found.append(("Modules/" + next, text))
        }
        return found
    }

    var id: String { name.lowercased() }
    static let fixtureFolder = "Apps/OrderTracking/Kit/Fixtures/api/orders"

    /// Writes every file (the module, its tests, a fixture for every demo subject of the screen in its own tree)
    /// and edits the declared touch points: the package tables, the host registry, CODEOWNERS, the team list
    /// and the screen's definition.
    public func run() throws(ShellError) -> [String] {
        let package = try read("Package.swift")
        let registry = try read("Apps/OrderTracking/Kit/Composition/Registry.swift")
        let codeowners = try read("CODEOWNERS")
        guard package.contains("    // squad:new-module"), package.contains("    // squad:new-interface"),
            package.contains("    // squad:new-fixtures"), registry.contains("        // squad:new-registration")
        else {
            throw ShellError(message: "Package.swift or Registry.swift lost its 'squad:new-…' marker line; restore it")
        }
        var imports = registry.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let importLines = imports.indices.filter { imports[$0].hasPrefix("import ") }
        let insertAt = importLines.first { imports[$0] > "import \(name)" } ?? (importLines.last.map { $0 + 1 } ?? 0)
        imports.insert("import \(name)", at: insertAt)
        var files: [(String, String)] = [
            ("Modules/\(name)/\(name)Component.swift", component),
            ("Modules/\(name)/README.md", readme),
            ("Modules/\(name)/Interface/\(name)Events.swift", interface),
            ("Tests/\(name)Tests/\(name)Tests.swift", tests),
            (
                "Package.swift",
                package.replacingOccurrences(
                    of: "    // squad:new-module",
                    with: "    (\"\(name)\", [\"Core\", \"\(name)Interface\"]),\n    // squad:new-module"
                ).replacingOccurrences(
                    of: "    // squad:new-interface", with: "    \"\(name)\",\n    // squad:new-interface"
                ).replacingOccurrences(
                    of: "    // squad:new-fixtures", with: "    \"\(name)\",\n    // squad:new-fixtures")
            ),
            (
                "Apps/OrderTracking/Kit/Composition/Registry.swift",
                imports.joined(separator: "\n").replacingOccurrences(
                    of: "        // squad:new-registration",
                    with: "        \(name)Module.registration,\n        // squad:new-registration")
            ),
            (
                "CODEOWNERS",
                codeowners + (codeowners.hasSuffix("\n") ? "" : "\n")
                    + "\n/Modules/\(name)/ \(owner)\n/Tests/\(name)Tests/ \(owner)\n"
            ),
        ]
        for subject in screen.subjects {
            let fixture = "Modules/\(name)/Fixtures/\(screen.collection)/\(subject)/\(id).json"
            files.append((fixture, "{\"title\": \"Hello from \(name)\"}\n"))
        }
        if let definition = screen.definition {
            guard let listed = ScaffoldScreen.listing(id, in: try read(definition)) else {
                throw ShellError(message: "\(definition) has no 'components' list to add \(id) to; restore it")
            }
            files.append((definition, listed))
        }
        // A new team or email owner is listed in .github/teams.json (read by the gate), to be filled with people.
        if let teams = try? read(Teams.path), !(owner.hasPrefix("@") && !owner.contains("/")),
            let data = teams.data(using: .utf8), let parsed = try? Teams.parse(data),
            parsed.members[owner.lowercased()] == nil, let close = teams.lastIndex(of: "}")
        {
            let body = teams[..<close].trimmingCharacters(in: .whitespacesAndNewlines)
            let entry = "  \"\(owner)\": []"
            files.append((Teams.path, body + (body.hasSuffix("{") ? "\n" : ",\n") + entry + "\n}\n"))
        }
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

    /// What to do after `squad new`, in ARCHITECTURE.md §8's order, so the first day needs no other page.
    func nextSteps(teams: Bool) -> String {
        let (first, definition) = (screen.subjects.first ?? "1", screen.definition ?? "the screen's definition")
        let onScreen =
            screen.name == "tracking"
            ? "an order's layout lists its cards: add \"\(id)\" to \(Scaffold.fixtureFolder)/\(first)/screen.json, then "
            : "\(definition) lists it already; "
        return """
            next steps (ARCHITECTURE.md §8):
              2. swift build && swift test --filter \(name)Tests && swift run order-tracking preview \(id) \
            --input \(screen.subject)=\(first)
              3. on the \(screen.name) screen: \(onScreen)Scripts/update-goldens \(name) (pins your card in \
            Tests/\(name)Tests/.goldens/)
              4. write the card's logic: load and card(for:) in Modules/\(name)/\(name)Component.swift
              5. swift run squad check (what CI will say; squad lint already counts the new files)
              6. git add -A && git commit, open a pull request; swift run squad gate --base main says who approves

            """
                + (teams
                    ? "people: add \(owner)'s GitHub logins to \(Teams.path) (the gate matches reviewers to owners through it)\n"
                    : "")
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

            /// Fetches `\(screen.collection)/<\(screen.subject)>/\(id).json` (or decodes the inline slice).
            public func load(_ context: ComponentContext) async throws -> \(name)Info {
                let data = try await context.payloadOrFetch(
                    try Endpoint("\(screen.collection)", try context.id("\(screen.subject)"), "\(id).json"))
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
                module: "\(name)", endpoint: "\(screen.collection)/{\(screen.subject)}/\(id).json"
            ) { \(name)Component() }
        }

        """
    }

    private var readme: String {
        """
        # \(name)

        Owner: `\(owner)`. Depends on Core and its own interface, `\(name)Interface` (`Interface/`: the events it
        publishes, which other squads import instead of this module); to hear another squad's event, add that
        squad's interface target (`OrderInterface`: each event an `EventName<Payload>`, declared with the type it
        carries) to this module's line in `Package.swift`.

        <!-- squad new wrote this page; replace every line marked TODO as the module grows. -->

        **Shows** (component id `\(id)`): TODO what the card tells a person (today: the endpoint's `title`).

        **Endpoint**: `\(screen.collection)/<\(screen.subject)>/\(id).json` — TODO its fields (today: `{"title": "Hello
        from \(name)"}`). Its demo answers are this squad's own, in `Fixtures/` laid out like the API, one for every
        demo \(screen.subject) of the \(screen.name) screen (\(screen.subjects.joined(separator: ", "))): a card on a
        shared screen answers for each, or the screen shows it hidden there.

        **Input interface**: `\(name)Module.registration` (one registry line). TODO events it consumes, if any:
        list them through their publisher's declaration (`static let consumedEvents: Set<AnyEventName> =
        [.orderStatus]`) and read each typed in `consume` (`event.payload(of: .orderStatus)`, nil for any other).

        **Output interface**: `hide` on failure. TODO events it publishes, refresh requests, analytics. Declare
        an event in `Interface/\(name)Events.swift` (the `\(name)Interface` target, yours: no platform review) with
        what it carries (`extension AnyEventName { public static let
        \(name.prefix(1).lowercased() + name.dropFirst())Changed = EventName<Change>("\(id).changed") }`, `Change` an
        `EventPayload`), list it in `publishedEvents` and announce it typed (`DomainEvent(.…Changed, change)`);
        `squad lint` warns until a module consumes it.

        **Business rules**: TODO what makes a payload wrong (today: an empty title hides the card).

        **Preview alone**: `swift run order-tracking preview \(id)` (`--payload FILE`, `--fail timeout`,
        `--event NAME=VALUE`). **Test alone**: `swift test --filter \(name)Tests`. **Before pushing**:
        `swift run squad check`. **On the demo screen**: add `"\(id)"` to a layout, then
        `Scripts/update-goldens \(name)` pins your card in `Tests/\(name)Tests/.goldens/`.

        """
    }

    private var interface: String {
        """
        import Core

        /// The events the \(name) squad publishes (its component's `publishedEvents`), each an `EventName<Payload>`
        /// declared here with the type it carries: other squads import \(name)Interface to hear them, never \(name).
        extension AnyEventName {}

        """
    }

    private var tests: String {
        """
        \(["Core", "CoreTesting", "Testing", name].sorted().map { "import \($0)" }.joined(separator: "\n"))

        @Suite struct \(name)Tests {
            @Test func loadingThenTheCard() async throws {
                let harness = ComponentHarness(
                    \(name)Component(), ids: ["\(screen.subject)": "1"],
                    answers: ["\(screen.collection)/1/\(id).json": .json(#"{"title": "Hi"}"#)])
                await harness.load()
                harness.expectPhases([.loading, .info])
                #expect(harness.blocks.first??.isSkeleton == true, "the skeleton is drawn first")
                #expect(harness.card().contains("│ Hi "))
            }

            @Test func aSlowAnswerShowsTheSkeletonThenTheCard() async throws {
                let harness = ComponentHarness(
                    \(name)Component(), ids: ["\(screen.subject)": "1"],
                    answers: ["\(screen.collection)/1/\(id).json": .delayed(.seconds(2), #"{"title": "Late"}"#)],
                    timeout: .seconds(5))
                await harness.load()
                harness.expectPhases([.loading, .info])
                #expect(harness.blocks.first??.isSkeleton == true)
                #expect(harness.card().contains("│ Late "))
            }

            @Test func aMalformedPayloadHides() async throws {
                let harness = ComponentHarness(
                    \(name)Component(), ids: ["\(screen.subject)": "1"],
                    answers: ["\(screen.collection)/1/\(id).json": .json(#"{"titel": "typo"}"#)])
                await harness.load()
                harness.expectHidden(because: "missing key 'title'")
                #expect(harness.card() == "(nothing)")
            }

            @Test func aMissingEndpointHides() async throws {
                let harness = ComponentHarness(\(name)Component(), ids: ["\(screen.subject)": "1"])
                await harness.load()
                harness.expectHidden(because: "\(screen.collection)/1/\(id).json: not found (404)")
            }
        }

        """
    }
}
