import ArgumentParsing
import Foundation
import InputRules
import JSON
import SafeText

/// The screen a new squad's card joins (`squad new … --screen checkout`), read from its definition in the host's
/// tree: the subject the card reads (the definition's first `inputs`, "cart"), where its answers live
/// (`carts/{cart}/<id>.json`: the subject's collection is its plural), every demo subject that needs an answer
/// (a card on a shared screen answers for each, or a veto that asks it says "could not check … 404"), and the
/// definition's text, which the scaffold lists the card in.
struct ScaffoldScreen: Sendable, Equatable {
    /// The screen's name: "tracking", "checkout".
    let name: String
    /// The id the card reads: "order", "cart".
    let subject: String
    /// The subject's demo ids, sorted: every order with a layout, every cart some tree answers for.
    let subjects: [String]
    /// The definition's path from the repository root, or nil for a repository without screen definitions.
    let definition: String?

    /// The API folder the subject's answers live in: "orders", "carts".
    var collection: String { subject + "s" }

    /// The host's tree: screen definitions and layouts stay with the screen's owner.
    static let hostTree = "Apps/OrderTracking/Kit/Fixtures/api"

    /// Screen `name` of the repository at `root`. A repository without screen definitions gets the tracking
    /// screen's subject (order 1234); any other screen it does not define is a usage error naming those it does.
    static func read(_ name: String, root: URL) throws(UsageError) -> ScaffoldScreen {
        let files = FileManager.default
        guard (1...40).contains(name.count), name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) })
        else {
            throw UsageError(message: "screen '\(SafeText.visible(name))' must be lowercase ASCII letters and digits")
        }
        let path = "\(hostTree)/screens/\(name).json"
        guard let data = files.contents(atPath: root.appendingPathComponent(path).path) else {
            let screens =
                ((try? files.contentsOfDirectory(atPath: root.appendingPathComponent("\(hostTree)/screens").path))
                ?? []).filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
            if screens.isEmpty && name == "tracking" {
                return ScaffoldScreen(name: name, subject: "order", subjects: ["1234"], definition: nil)
            }
            throw UsageError(
                message:
                    "no screen '\(name)' in \(hostTree)/screens; the screens are \(screens.joined(separator: ", "))")
        }
        guard case .object(let fields)? = try? JSONValue(parsing: data), case .array(let inputs)? = fields["inputs"],
            case .string(let subject)? = inputs.first, !subject.isEmpty,
            subject.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) }), case .array = fields["components"]
        else {
            throw UsageError(message: "\(path) names no subject (its first 'inputs') or no 'components' list")
        }
        let collection = subject + "s"
        var subjects: Set<String> = []
        if case .string(let layout)? = fields["layout"] {
            // A screen with per-subject layouts (orders/{order}/screen.json): its demo subjects have one.
            let folder = root.appendingPathComponent("\(hostTree)/\(collection)")
            let file = layout.split(separator: "/").last.map(String.init) ?? "screen.json"
            for id in (try? files.contentsOfDirectory(atPath: folder.path)) ?? []
            where InputID.accepts(id) && files.fileExists(atPath: folder.appendingPathComponent("\(id)/\(file)").path) {
                subjects.insert(id)
            }
        } else {
            // Every subject some tree answers for, the host's or a squad's.
            let modules = (try? files.contentsOfDirectory(atPath: root.appendingPathComponent("Modules").path)) ?? []
            // A subject is a folder whose name is an id (InputRules' InputID), as `preview` picks its first one
            // (HostComposition's DemoSubject): a file or a name no command line could give is no subject.
            for tree in [hostTree] + modules.map({ "Modules/\($0)/Fixtures" }) {
                let folder = root.appendingPathComponent("\(tree)/\(collection)")
                for id in (try? files.contentsOfDirectory(atPath: folder.path)) ?? [] where InputID.accepts(id) {
                    var isFolder: ObjCBool = false
                    if files.fileExists(atPath: folder.appendingPathComponent(id).path, isDirectory: &isFolder),
                        isFolder.boolValue
                    {
                        subjects.insert(id)
                    }
                }
            }
        }
        guard !subjects.isEmpty else {
            throw UsageError(message: "screen '\(name)' has no demo \(subject) (no \(collection)/<id>/ in any tree)")
        }
        return ScaffoldScreen(name: name, subject: subject, subjects: subjects.sorted(), definition: path)
    }

    /// The definition's text with `id` listed in its `components`, before the last card (a checkout's total, the
    /// tracking screen's account card stay last), in the list's own layout (one line, or one card a line).
    static func listing(_ id: String, in text: String) -> String? {
        guard let key = text.range(of: "\"components\""), let open = text[key.upperBound...].firstIndex(of: "[")
        else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        var lastEntry: String.Index?
        var index = open
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
                if depth == 1 { lastEntry = index }
            } else if character == "[" || character == "{" {
                if depth == 1 && character == "{" { lastEntry = index }
                depth += 1
            } else if character == "]" || character == "}" {
                depth -= 1
                if depth == 0 { break }
            }
            index = text.index(after: index)
        }
        guard depth == 0, index < text.endIndex else { return nil }
        guard let last = lastEntry else {
            var result = text
            result.insert(contentsOf: "\"\(id)\"", at: index)
            return result
        }
        // The separator before the last entry: ", " on one line, or a line break and its indent.
        let before = text[open..<last]
        let lineStart = before.lastIndex(of: "\n").map { before.index(after: $0) }
        let separator =
            lineStart.map { "\n" + String(before[$0...].prefix { $0 == " " || $0 == "\t" }) } ?? " "
        var result = text
        result.insert(contentsOf: "\"\(id)\"," + separator, at: last)
        return result
    }
}
