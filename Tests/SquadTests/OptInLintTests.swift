import Foundation
import Testing

@testable import SquadKit

/// An opt-in implemented but not declared compiles and is never called: `squad lint` warns.
@Suite struct OptInLintTests {
    @Test func aRequirementWrittenWithoutItsProtocolIsNamedWithTheFix() {
        let card = """
            public struct RewardsComponent: Component, Validatable {
                public func validate(_ action: UserAction, info: Info) -> Verdict { .allow }
                public func refreshInterval(for info: Info) -> Duration? { .seconds(5) }
                public static let consumedEvents: Set<AnyEventName> = [.orderStatus]
            }
            """
        let tracking = """
            extension RewardsComponent {
                public func analytics(for moment: Moment<Info>) -> [AnalyticsEvent] { [] }
            }
            """
        let warnings = OptInLint.warnings(sources: [
            ("Modules/Rewards/RewardsComponent.swift", card), ("Modules/Rewards/RewardsAnalytics.swift", tracking),
        ])
        #expect(
            warnings == [
                "Modules/Rewards/RewardsComponent.swift: RewardsComponent implements refreshInterval(for:) but does not "
                    + "declare SelfRefreshing, so no screen will ever use it; add SelfRefreshing to its conformances",
                "Modules/Rewards/RewardsComponent.swift: RewardsComponent implements consumedEvents but does not "
                    + "declare EventConsuming, so no screen will ever use it; add EventConsuming to its conformances",
                "Modules/Rewards/RewardsAnalytics.swift: RewardsComponent implements analytics(for:) but does not "
                    + "declare Tracking, so no screen will ever use it; add Tracking to its conformances",
            ])
    }

    @Test func anOptInDeclaredInAnExtensionOrAnotherFileCountsAndOtherTypesAreNotComponents() {
        let card = "public struct A: Component {\n func analytics(for moment: M) -> [E] { [] }\n}\n"
        let declared = "extension A: Tracking {}\n"
        let helper = "struct Rules {\n func validate(_ x: Int) -> Bool { true }\n}\n"
        #expect(OptInLint.warnings(sources: [("a.swift", card), ("b.swift", declared), ("c.swift", helper)]).isEmpty)
    }

    /// The project's own modules declare every opt-in they implement.
    @Test func theProjectsModulesAreClean() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let modules = root.appendingPathComponent("Modules")
        var sources: [(path: String, text: String)] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: modules.path) {
            let folder = modules.appendingPathComponent(module)
            for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                sources.append(("Modules/\(module)/\(file)", text))
            }
        }
        #expect(sources.count > 50)
        #expect(OptInLint.warnings(sources: sources) == [])
    }
}
