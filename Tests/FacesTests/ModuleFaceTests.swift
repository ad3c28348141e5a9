import Core
import CoreTesting
import Faces
import Testing

/// A client of any module whose input is an order id: one status line per output, as a host without a registry
/// would show them. It only knows the face, so a test can hand it a fake.
private func statusLines<Info>(
    for face: some ModuleFace<String, Info>, context: ComponentContext, describe: (Info) -> String
) async -> [String] {
    let session = face.render(into: Slot(id: "client") { _ in }, context: context)
    var lines: [String] = []
    for await output in session.outputs {
        switch output {
        case .loading: lines.append("\(face.input): loading")
        case .shown(let info): lines.append("\(face.input): \(describe(info))")
        case .hidden(let failure): lines.append("\(face.input): hidden (\(failure.reason))")
        }
    }
    return lines
}

/// A component small enough to read at a glance: the greeting for a user id.
private struct Salutation: Component {
    static let id: ComponentID = "salutation"
    func load(_ context: ComponentContext) async throws -> String {
        String(
            decoding: try await context.backend.fetch(try Endpoint("greetings", try context.id("user"))), as: UTF8.self)
    }
    func card(for state: ComponentState<String>, context: ComponentContext) -> Block? { nil }
}

@Suite struct ModuleFaceTests {
    @Test func aClientListensToAFakeFaceItWasHanded() async {
        let clock = VirtualClock()
        let fake = ScriptedFace<String, Int>(
            input: "1234", script: [.loading, .shown(3), .hidden(Failure("backend down")), .shown(2)])
        let lines = await statusLines(
            for: fake, context: ComponentContext(backend: CannedBackend([:], clock: clock), clock: clock)
        ) { "arriving in \($0) min" }
        #expect(
            lines == [
                "1234: loading", "1234: arriving in 3 min", "1234: hidden (backend down)", "1234: arriving in 2 min",
            ])
    }

    @Test func aComponentFaceBindsItsInputAndDrawsIntoTheSlot() async {
        let clock = VirtualClock()
        let backend = CannedBackend(["greetings/7": .json("hello, seven")], clock: clock)
        let face = ComponentFace(input: "7", component: { Salutation() }, bind: { $1.with("user", $0) })
        let posted = Locked<[SlotUpdate]>([])
        let session = face.render(
            into: Slot(id: "greeting") { update in posted.withLock { $0.append(update) } },
            context: ComponentContext(backend: backend, clock: clock))
        var iterator = session.outputs.makeAsyncIterator()
        #expect(await iterator.next() == .loading)
        #expect(await iterator.next() == .shown("hello, seven"))
        session.end()
        #expect(await iterator.next() == nil)
        #expect(backend.requests == ["greetings/7"])
        #expect(!posted.withLock { $0 }.isEmpty, "the container draws into the client's slot")
    }
}
