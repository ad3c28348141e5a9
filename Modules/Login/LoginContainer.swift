import Core

/// The login plugin point: modules register success and failure hooks; only Login resolves and runs them.
/// No singleton: the host creates one and passes it to whoever registers.
public final class LoginContainer: Sendable {
    private let success:
        (point: PluginPoint<any PostLoginSuccessPlugin>, resolver: PluginResolver<any PostLoginSuccessPlugin>)
    private let failure:
        (point: PluginPoint<any PostLoginFailurePlugin>, resolver: PluginResolver<any PostLoginFailurePlugin>)

    /// An empty container.
    public init() {
        success = PluginPoint.make(name: "login success hooks")
        failure = PluginPoint.make(name: "login failure hooks")
    }

    /// Adds a success hook after those already registered; the same id twice is an error.
    public func register(success plugin: any PostLoginSuccessPlugin, id: String) throws(PluginError) {
        try success.point.register(plugin, id: id)
    }

    /// Adds a failure hook after those already registered; the same id twice is an error.
    public func register(failure plugin: any PostLoginFailurePlugin, id: String) throws(PluginError) {
        try failure.point.register(plugin, id: id)
    }

    // Resolving is internal: the compiler stops every other module from running or reading the hooks.
    func successHooks() -> [(id: String, plugin: any PostLoginSuccessPlugin)] { success.resolver.resolveWithIDs() }

    func failureHooks() -> [(id: String, plugin: any PostLoginFailurePlugin)] { failure.resolver.resolveWithIDs() }
}
