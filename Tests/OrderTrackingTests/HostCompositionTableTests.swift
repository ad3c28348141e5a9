import ComponentWorkers
import Core
import CoreTesting
import Foundation
import HostIO
import Order
import Storage
import Tabs
import Testing

@testable import OrderTrackingKit

/// The composition root's tables: one for the login hooks (where each runs), and a conflict in any table refused
/// with one line and exit 1 instead of a crash.
@Suite struct HostCompositionTableTests {
    @Test func theWorkersErrandsAreTheHookTablesWorkerHooks() {
        let workers = HostRegistry.hooks.compactMap { hook -> String? in
            if case .worker = hook.runs { return hook.id }
            return nil
        }
        #expect(HostRegistry.hooks.map(\.id) == ["Profile", "Feed", "Storage"])
        #expect(HostRegistry.errands.map(\.id) == workers && workers == ["Profile", "Feed"])
        #expect(HostRegistry.errands.map(\.module) == workers, "each runs in its own squad's worker")
    }

    @Test func theShippedTablesComposeAndARepeatedCardIsAConflictNotACrash() throws {
        #expect(HostRegistry.conflict == nil)
        let folder = try TemporaryDirectory()
        #expect {
            try HostRegistry.make(
                store: UserStore(path: folder.url.path), tabs: TabContainer(),
                lines: HostRegistry.lines + [OrderModule.registration])
        } throws: { error in
            "\(error)".hasPrefix("the registry: ") && "\(error)".contains("order")
        }
    }

    @Test func aConflictRunsNoCommandAndSaysOneLineWithExitOne() async throws {
        let said = Locked((out: "", err: ""))
        let streams = StandardStreams { descriptor, text in
            said.withLock { descriptor == 1 ? ($0.out += text) : ($0.err += text) }
        }
        let status = try await OrderTrackingApp.run(
            ["1234", "--plain"], environment: CLI.environment, streams: streams, clock: VirtualClock(),
            signals: false, conflict: HostConflict(description: "the registry: component 'order' is registered twice"))
        #expect(status == .fatal)
        let (out, err) = said.withLock { $0 }
        #expect(out.isEmpty)
        #expect(
            err
                == "order-tracking: the host's composition is inconsistent: the registry: component 'order' is "
                + "registered twice\n")
    }
}
