import Core
import Foundation
import JSON

/// The stable `--format json` shape (documented in the README): one object per run.
struct JSONReport: Encodable {
    struct Entry: Encodable {
        let id: String
        let module: String
        let state: String
        let hidden: Bool
        let reason: String?
        let elapsed_ms: Int?
        let info: JSONValue?

        init(_ snapshot: ComponentSnapshot, module: String, elapsedMs: Int?) {
            id = snapshot.id.rawValue
            self.module = module
            state = snapshot.phase.rawValue
            hidden = snapshot.phase == .failed
            reason = snapshot.reason
            elapsed_ms = elapsedMs
            info = snapshot.info.flatMap { try? JSONValue(parsing: $0) }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(module, forKey: .module)
            try container.encode(state, forKey: .state)
            try container.encode(hidden, forKey: .hidden)
            try container.encode(reason, forKey: .reason)
            try container.encode(elapsed_ms, forKey: .elapsed_ms)
            try container.encode(info, forKey: .info)
        }

        enum CodingKeys: String, CodingKey { case id, module, state, hidden, reason, elapsed_ms, info }
    }

    let order: String
    let status: String
    let elapsed_ms: Int
    let components: [Entry]

    init(order: String, elapsedMs: Int, components: [Entry]) {
        self.order = order
        self.status = components.contains { $0.hidden } ? "degraded" : "complete"
        self.elapsed_ms = elapsedMs
        self.components = components
    }

    func text() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
