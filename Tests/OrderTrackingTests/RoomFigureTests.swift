import Foundation
import Testing

/// The figures the docs give about where code lives (issue 58): which files may start an unstructured task, and how
/// large the host's Kit may grow. Each is read from the sources, so a doc never states a number no test checks.
@Suite struct RoomFigureTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every Swift file under `folder` (relative to the repository), with its text.
    static func sources(under folder: String) throws -> [(path: String, text: String)] {
        let root = repository.appendingPathComponent(folder)
        let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return try paths.filter { $0.hasSuffix(".swift") }.sorted().map { path in
            (folder + "/" + path, try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
        }
    }

    /// Code lines as the READMEs count them: neither blank nor only a comment (`grep -cvE '^\s*(//.*)?$'`).
    static func codeLines(_ text: String) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            return !trimmed.isEmpty && !trimmed.hasPrefix("//")
        }.count
    }

    /// The documented exceptions (Modules/HostIO/README.md, "The run's task tree"), file by file with how many tasks each
    /// starts: `withDeadline`'s operation, a timer's sleep on a virtual clock and a fired system timer's action
    /// (Core), the definition of `Task.placed` itself, `ScreenRuntime.open`'s loop for the harness, the signed-in
    /// user's tab loads (`SessionTabs`), and the test rig's own clock and executor (CoreTesting).
    static let unstructured: [String: Int] = [
        "Modules/Core/Deadline.swift": 1,
        "Modules/Core/Clock.swift": 2,
        "Modules/Core/TaskPlacement.swift": 1,
        "Modules/ScreenRuntime/ScreenRuntime.swift": 1,
        "Modules/CoreTesting/VirtualClock.swift": 1,
        "Modules/CoreTesting/SerialTestExecutor.swift": 1,
        "Apps/OrderTracking/Kit/Composition/SessionTabs.swift": 1,
    ]

    /// How many unstructured tasks `text` starts (`Task {`, `Task(`, `Task.detached`, `Task.placed`), comments aside.
    static func tasksStarted(in text: String) -> Int {
        text.split(separator: "\n").filter { line in
            let code = line.drop { $0 == " " }
            guard !code.hasPrefix("//") else { return false }
            return code.range(of: #"(^|[^A-Za-z.])Task(\.detached|\.placed)?\s*[({]"#, options: .regularExpression)
                != nil
        }.count
    }

    @Test func noUnstructuredTaskOutsideTheDocumentedExceptions() throws {
        var found: [String: Int] = [:]
        for folder in ["Modules", "Apps"] {
            for (path, text) in try Self.sources(under: folder) where Self.tasksStarted(in: text) > 0 {
                found[path] = Self.tasksStarted(in: text)
            }
        }
        #expect(found == Self.unstructured)
    }

    /// The host's Kit holds only what is this host's (issue 58 moved the demo's trees and subjects, the --record/--replay
    /// files, a screen command's run, the components listing and a preview's inputs to HostComposition, and following
    /// the tab bar to LiveScreen): at most 870 code lines, the figure Apps/OrderTracking/README.md gives, with room for
    /// the two lines `squad new` adds per squad (an import and a registry line; CI scaffolds three). Core's own figure,
    /// counted the same way, is CoreBudgetTests'.
    @Test func theHostKitStaysWithinItsFigure() throws {
        let total = try Self.sources(under: "Apps/OrderTracking/Kit").reduce(0) { $0 + Self.codeLines($1.text) }
        #expect(total <= 870, "Kit has \(total) code lines")
    }

    /// ScreenSinks is where frames go: it builds no backend (no FixtureBackend or CoreHTTP import) and its code names
    /// no squad, screen or demo subject (the words come from definitions and the host). Comments may explain with
    /// examples.
    @Test func screenSinksBuildsNoBackendAndNamesNoSquad() throws {
        let words = ["tracking", "checkout", "payment", "promo", "rider", "cart", "order", "1234", "c100", "cancel-"]
        for (path, text) in try Self.sources(under: "Modules/ScreenSinks") {
            for line in text.split(separator: "\n") {
                let code = line.drop { $0 == " " }
                guard !code.hasPrefix("//") else { continue }
                let lowered = code.lowercased()
                #expect(!lowered.hasPrefix("import fixturebackend") && !lowered.hasPrefix("import corehttp"), "\(path)")
                for word in words where lowered.range(of: #"\b"# + word + #"\b"#, options: .regularExpression) != nil {
                    Issue.record("\(path): '\(word)' in \(code)")
                }
            }
        }
    }

    @Test func theTaskCountSeesEveryWayToStartOne() {
        #expect(Self.tasksStarted(in: "Task { a() }\nlet t = Task.placed {\n// Task { }\nTask(priority: .low) {") == 3)
        #expect(Self.tasksStarted(in: "group.addTask { }\nlet x: Task<Void, Never>\nTask.sleep(for: .seconds(1))") == 0)
    }
}
