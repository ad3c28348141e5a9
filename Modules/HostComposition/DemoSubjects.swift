import ArgumentParsing
import Core
import Foundation
import HostIO
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

/// What a preview of one card reads, from what a command line gave: an `--input` named like a prompt of the card's
/// screen is that prompt's value, said at the start as on the screen (`--input promo=SAVE10`), any other an id the
/// card reads, and an input not given the first demo subject of the card's screen (said in one line on stderr).
/// Each value is held to its kind's one rule, as on a screen.
public struct PreviewInputs: Sendable {
    /// The ids the card reads, by name.
    public var ids: [String: String]
    /// The prompts' values, as the events a person typing them sends.
    public var said: [DomainEvent] = []

    /// Sorts `inputs` (and `--order`'s `order`) by `prompts`, fills each input of `subjects` not given, and
    /// checks that an `events` value a prompt's event carries is a code.
    public init(
        order: String?, inputs: [NamedValue], events: [NamedValue], prompts: [ScreenPrompt], subjects: [DemoSubject],
        terminal: Terminal
    ) throws(UsageError) {
        ids = order.map { ["order": $0] } ?? [:]
        for given in inputs {
            guard let prompt = prompts.first(where: { $0.name == given.name }) else {
                ids[given.name] = try validateID(given.value, kind: given.name)
                continue
            }
            if let refusal = ScreenRun.refusal(of: given.value, by: prompt, command: "preview") { throw refusal }
            said.append(prompt.event(given.value))
        }
        for subject in subjects where ids[subject.input] == nil {
            ids[subject.input] = subject.id
            terminal.err(subject.line)
        }
        // A prompt's event is what a person types, so its value is held to the prompt's rule (a code).
        for given in events where prompts.contains(where: { $0.prompt.event == given.name }) {
            guard InputCode.accepts(given.value) else {
                throw UsageError(message: InputCode.refusal(of: given.value, given: "--event \(given.name)"))
            }
        }
    }
}
