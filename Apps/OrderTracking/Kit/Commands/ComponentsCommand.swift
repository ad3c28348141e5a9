import Core
import Foundation
import JSON
import TerminalUI

/// `components`: every registered component with its module, owning team (from CODEOWNERS) and endpoint.
struct ComponentsCommand {
    let json: Bool
    let host: HostEnvironment

    func run() -> ExitCode {
        let owners = CodeOwnersLookup.load()
        let rows = host.registry.registrations.map { registration in
            (
                id: registration.id.rawValue, module: registration.module,
                owner: owners?.owner(of: "Modules/\(registration.module)/README.md") ?? "-",
                endpoint: registration.endpoint
            )
        }
        if json {
            let objects: [JSONValue] = rows.map {
                .object([
                    "id": .string($0.id), "module": .string($0.module), "owner": .string($0.owner),
                    "endpoint": .string($0.endpoint),
                ])
            }
            host.terminal.out(JSONValue.array(objects).text + "\n")
            return .ok
        }
        let header = ("ID", "MODULE", "OWNER", "ENDPOINT")
        let all = [header] + rows.map { ($0.id, $0.module, $0.owner, $0.endpoint) }
        let widths = [all.map(\.0.count).max()!, all.map(\.1.count).max()!, all.map(\.2.count).max()!]
        let text = all.map { row in
            [
                DisplayWidth.pad(row.0, to: widths[0]), DisplayWidth.pad(row.1, to: widths[1]),
                DisplayWidth.pad(row.2, to: widths[2]), row.3,
            ]
            .joined(separator: "  ")
        }
        host.terminal.out(text.map { $0 + "\n" }.joined())
        if owners == nil {
            host.terminal.err(
                "note: CODEOWNERS not found from \(FileManager.default.currentDirectoryPath); owners shown as '-'")
        }
        return .ok
    }
}
