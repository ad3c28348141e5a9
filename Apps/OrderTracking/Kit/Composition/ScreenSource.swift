import ComponentWorkers
import Core
import Foundation
import HostComposition
import ScreenRuntime
import ScreenSinks

extension HostEnvironment {
    /// This host as a screen run sees it (HostComposition's `ScreenHost`): its words, the embedded tracking screen
    /// for a backend laid out before screens were data, and the signed-in user's tab bar.
    var screens: ScreenHost {
        let (container, store) = (tabs, self.store)
        return ScreenHost(
            tool: "order-tracking", registry: registry, backend: backend, clock: clock, timeout: timeout,
            terminal: terminal, attempts: attempts, workers: workers,
            fallback: { $0 == "tracking" ? Self.embeddedDefinition($0) : nil },
            known: "the demo has tracking and checkout", hint: { $0 == "order" ? "try the demo order 1234" : nil },
            bar: (
                Self.barCard,
                {
                    let tabs = SessionTabs(container: container, store: store)
                    return (tabs.console, tabs.stop)
                }
            ))
    }

    /// The runtime for `definition` (``ScreenHost/runtime(_:settings:trace:analytics:adding:)``).
    func runtime(
        _ definition: ScreenDefinition, settings: ScreenSettings, trace: Bool = false, analytics: AnalyticsLog?,
        adding extra: [ComponentID] = []
    ) async -> ScreenRuntime? {
        await screens.runtime(definition, settings: settings, trace: trace, analytics: analytics, adding: extra)
    }

    /// The embedded demo's definition of `name`, read from the fixtures shipped with the app.
    static func embeddedDefinition(_ name: String) -> ScreenDefinition? {
        FileManager.default.contents(atPath: embeddedFixtures + "/screens/\(name).json").flatMap {
            try? ScreenDefinition.parse($0, name: name)
        }
    }
}
