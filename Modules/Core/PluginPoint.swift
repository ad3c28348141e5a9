/// Why a plugin could not be registered.
public enum PluginError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A plugin with this id is already registered at this point.
    case duplicate(id: String, point: String)

    /// Names the plugin and the point.
    public var description: String {
        switch self {
        case .duplicate(let id, let point): "plugin '\(id)' is already registered at \(point); register it once"
        }
    }
}

/// A thread-safe, ordered list of plugins. Anyone holding the point may register; only the holder of the
/// matching ``PluginResolver`` (the point's owner, who keeps it non-public) may read the plugins back.
public final class PluginPoint<Plugin: Sendable>: Sendable {
    private let name: String
    private let entries = Locked<[(id: String, plugin: Plugin)]>([])

    private init(name: String) { self.name = name }

    /// Creates a point and its resolver; the owner publishes the point and keeps the resolver to itself.
    public static func make(name: String) -> (point: PluginPoint<Plugin>, resolver: PluginResolver<Plugin>) {
        let point = PluginPoint(name: name)
        return (point, PluginResolver(point: point))
    }

    /// Adds `plugin` under `id` after those already registered; the same id twice is an error.
    public func register(_ plugin: Plugin, id: String) throws(PluginError) {
        let added = entries.withLock { entries in
            for entry in entries where entry.id == id { return false }
            entries.append((id, plugin))
            return true
        }
        if !added { throw .duplicate(id: id, point: name) }
    }

    fileprivate func snapshot() -> [(id: String, plugin: Plugin)] { entries.withLock { $0 } }
}

/// The capability to read a ``PluginPoint``'s plugins; whoever holds it owns the point.
public struct PluginResolver<Plugin: Sendable>: Sendable {
    fileprivate let point: PluginPoint<Plugin>

    /// The plugins in registration order.
    public func resolve() -> [Plugin] { point.snapshot().map(\.plugin) }

    /// The plugins with their ids, in registration order.
    public func resolveWithIDs() -> [(id: String, plugin: Plugin)] { point.snapshot() }
}
