import ArgumentParsing
import Core
import Foundation
import ScreenRuntime

/// A subject of the embedded demo a card can be previewed with when none is given: the first one of its screen.
struct DemoSubject: Sendable, Equatable {
    /// The screen's input it fills ("cart").
    let input: String
    /// The subject's id ("C100").
    let id: String

    /// The line that says so on stderr.
    var line: String {
        "previewing with \(input) \(id), the first demo \(input); give --input \(input)=ID for another"
    }

    /// For each input of the first embedded demo screen (by name) that shows `card`, its first demo subject: the
    /// first folder, by name, in any demo tree under the path the screen addresses that input by (its layout, its actions' sends,
    /// its cards' endpoints: `carts/{cart}/…` gives `carts/`, whose first folder is `C100`). A card no demo screen
    /// shows yet (just made by `squad new`) takes the inputs its own endpoint names (`orders/{order}/…`).
    static func first(for card: ComponentID, registry: ComponentRegistry) -> [DemoSubject] {
        let screen = screen(showing: card)
        let own = (try? registry.registration(for: card).endpoint).map { [$0] } ?? []
        var templates = own
        if let screen {
            templates += [screen.layout].compactMap { $0 } + screen.actions.compactMap(\.send)
            templates += screen.entries.compactMap { try? registry.registration(for: $0.id).endpoint }
        }
        let inputs =
            screen?.inputs
            ?? own.flatMap { $0.split(separator: "/") }.compactMap { segment in
                segment.hasPrefix("{") && segment.hasSuffix("}") ? String(segment.dropFirst().dropLast()) : nil
            }
        return inputs.compactMap { input in
            for template in templates {
                let segments = template.split(separator: "/").map(String.init)
                guard let at = segments.firstIndex(of: "{\(input)}"), at > 0 else { continue }
                let folder = segments[..<at].joined(separator: "/")
                if let id = firstFolder(in: folder, kind: input) { return DemoSubject(input: input, id: id) }
            }
            return nil
        }
    }

    /// The first embedded demo screen (by name) that shows `card`, or nil when none does yet: whose inputs and
    /// prompts a preview of the card takes.
    static func screen(showing card: ComponentID) -> ScreenDefinition? {
        let screens = HostEnvironment.embeddedFixtures + "/screens"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: screens)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().lazy.compactMap { file in
            HostEnvironment.embeddedDefinition(String(file.dropLast(5)))
        }.first { $0.entries.contains { $0.id == card } }
    }

    /// The first folder at `path` of the demo's trees laid over each other (the host's and every squad's
    /// `Fixtures`), by name, whose name is an id.
    private static func firstFolder(in path: String, kind: String) -> String? {
        let names = HostEnvironment.embeddedFixtureTrees.flatMap { tree in
            let folder = tree + "/" + path
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { name in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder)
                    && isFolder.boolValue
            }
        }
        return names.sorted().first { (try? validateID($0, kind: kind)) != nil }
    }
}
