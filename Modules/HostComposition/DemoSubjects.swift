import Core
import Foundation
import InputRules
import ScreenRuntime

/// A subject of a host's demo data a card can be previewed with when none is given: the first one of its screen.
/// Host-generic: the trees and the screens are the host's, the rule is the same for any host.
public struct DemoSubject: Sendable, Equatable {
    /// The screen's input it fills ("cart").
    public let input: String
    /// The subject's id ("C100").
    public let id: String

    /// A subject: `id` for `input`.
    public init(input: String, id: String) { (self.input, self.id) = (input, id) }

    /// The line that says so on stderr.
    public var line: String {
        "previewing with \(input) \(id), the first demo \(input); give --input \(input)=ID for another"
    }

    /// For each input of `screen` (the first demo screen that shows `card`), its first demo subject: the first
    /// folder, by name, in any of `trees` under the path the screen addresses that input by (its layout, its
    /// actions' sends, its cards' endpoints: `carts/{cart}/…` gives `carts/`, whose first folder is `C100`). A card
    /// no demo screen shows yet (just made by `squad new`) takes the inputs its own endpoint names
    /// (`orders/{order}/…`).
    public static func first(
        for card: ComponentID, registry: ComponentRegistry, screen: ScreenDefinition?, trees: [String]
    ) -> [DemoSubject] {
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
                if let id = firstFolder(in: folder, trees: trees) { return DemoSubject(input: input, id: id) }
            }
            return nil
        }
    }

    /// The first screen (by name) in the `screens` folder that shows `card`, read by `definition`, or nil when none
    /// does yet: whose inputs and prompts a preview of the card takes.
    public static func screen(
        showing card: ComponentID, screens: String, definition: (String) -> ScreenDefinition?
    ) -> ScreenDefinition? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: screens)) ?? []
        for file in names.filter({ $0.hasSuffix(".json") }).sorted() {
            if let screen = definition(String(file.dropLast(5))), screen.entries.contains(where: { $0.id == card }) {
                return screen
            }
        }
        return nil
    }

    /// The first folder at `path` of `trees` laid over each other, by name, whose name is an id (InputRules'
    /// ``InputID``: the rule every id a person gives is held to).
    private static func firstFolder(in path: String, trees: [String]) -> String? {
        let names = trees.flatMap { tree in
            let folder = tree + "/" + path
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { name in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder)
                    && isFolder.boolValue
            }
        }
        return names.sorted().first(where: InputID.accepts)
    }
}
