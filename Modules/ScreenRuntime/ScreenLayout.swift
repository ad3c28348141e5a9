import Core
import Foundation
import JSON

extension ScreenEntry {
    /// The entries of a layout, `{"components": ["order", {"id": "eta", "payload": {…}}]}`: component ids in
    /// order, each optionally with its own payload slice, kept as the exact bytes the backend sent (the component
    /// decodes exactly those; the runtime never looks inside). Without a `components` list: `defaultOrder`.
    public static func layout(from data: Data, defaultOrder: [ComponentID]) throws -> [ScreenEntry] {
        let (value, slices) = try JSONValue.parse(data) { path in
            path.count == 3 && path[0] == "components" && path[2] == "payload"
        }
        guard case .object(let root) = value else {
            throw Failure("screen.json must be a JSON object")
        }
        guard let list = root["components"] else { return defaultOrder.map { ScreenEntry(id: $0) } }
        guard case .array(let items) = list else { throw Failure("screen.json: 'components' must be a list") }
        return try items.enumerated().map { index, item in
            switch item {
            case .string(let id): return ScreenEntry(id: ComponentID(id))
            case .object(let fields):
                guard case .string(let id)? = fields["id"] else {
                    throw Failure("screen.json: components[\(index)] has no string 'id'")
                }
                return ScreenEntry(id: ComponentID(id), payload: slices[["components", String(index), "payload"]])
            default: throw Failure("screen.json: components[\(index)] must be an id or {\"id\": …}")
            }
        }
    }
}
