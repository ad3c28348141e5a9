import Core
import Faces

/// A fake `ModuleFace` for testing a module's clients: it renders nothing and tells its client exactly the
/// outputs it was given, in order, then finishes (reloading is a no-op).
public struct ScriptedFace<Input: Sendable, Info: Sendable & Equatable>: ModuleFace {
    /// The input the client made the face with.
    public let input: Input
    private let script: [ModuleOutput<Info>]

    /// A face for `input` that will report `script`.
    public init(input: Input, script: [ModuleOutput<Info>]) {
        self.input = input
        self.script = script
    }

    /// Reports the script and finishes.
    public func render(into slot: Slot, context: ComponentContext) -> ModuleSession<Info> {
        let (outputs, continuation) = AsyncStream.makeStream(of: ModuleOutput<Info>.self)
        for output in script { continuation.yield(output) }
        continuation.finish()
        return ModuleSession(outputs: outputs, reload: {}, end: { continuation.finish() })
    }
}
