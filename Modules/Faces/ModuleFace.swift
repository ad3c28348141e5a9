import Core

/// What a module tells its client over time: a card loading, shown with its info, or hidden with the reason (and
/// shown again when a later load succeeds).
public enum ModuleOutput<Info: Sendable & Equatable>: Sendable, Equatable {
    /// The skeleton is on screen; nothing is known yet.
    case loading
    /// The card is on screen with this info.
    case shown(Info)
    /// The card is hidden, for this reason.
    case hidden(Failure)
}

/// A squad module as a client without a registry sees it: made with its input (an order id), passed to where it
/// is used (so a test can pass a fake), rendered into a slot, and listened to for as long as the client cares.
public protocol ModuleFace<Input, Info>: Sendable {
    /// What the client hands the module, e.g. the order id.
    associatedtype Input: Sendable
    /// What the module hands back when its card is shown.
    associatedtype Info: Sendable & Equatable
    /// The input the face was made with.
    var input: Input { get }
    /// Starts drawing into `slot`; the session's outputs say what happened, load after load.
    func render(into slot: Slot, context: ComponentContext) -> ModuleSession<Info>
}

/// One rendering of a module: its outputs as they happen, and the two things a client may ask of it.
public struct ModuleSession<Info: Sendable & Equatable>: Sendable {
    /// `.loading` first, then one output per finished load, until `end`.
    public let outputs: AsyncStream<ModuleOutput<Info>>
    /// Loads again (refreshing shown info, or retrying after a failure); returns when the new output is out.
    public let reload: @Sendable () async -> Void
    /// Stops the module and finishes `outputs`.
    public let end: @Sendable () -> Void

    /// Builds a session from its stream and actions (a fake face scripts them).
    public init(
        outputs: AsyncStream<ModuleOutput<Info>>, reload: @escaping @Sendable () async -> Void,
        end: @escaping @Sendable () -> Void
    ) {
        (self.outputs, self.reload, self.end) = (outputs, reload, end)
    }
}

/// The face of a module backed by one component: the component, and how the input becomes the ids it reads.
public struct ComponentFace<C: Component, Input: Sendable>: ModuleFace {
    /// The input the face was made with.
    public let input: Input
    private let make: @Sendable () -> C
    private let bind: @Sendable (Input, ComponentContext) -> ComponentContext

    /// A face for `input`, whose component `make` builds and whose ids `bind` adds to the client's context.
    public init(
        input: Input, component make: @escaping @Sendable () -> C,
        bind: @escaping @Sendable (Input, ComponentContext) -> ComponentContext
    ) {
        (self.input, self.make, self.bind) = (input, make, bind)
    }

    /// Runs the component's state machine in `slot` and reports each settled state.
    public func render(into slot: Slot, context: ComponentContext) -> ModuleSession<C.Info> {
        let container = ComponentContainer(make(), slot: slot, context: bind(input, context))
        let (outputs, continuation) = AsyncStream.makeStream(of: ModuleOutput<C.Info>.self)
        continuation.yield(.loading)
        let report: @Sendable () -> Void = {
            let state = container.current
            if case .info(let info) = state { continuation.yield(.shown(info)) }
            if case .failed(let failure) = state { continuation.yield(.hidden(failure)) }
        }
        let first = Task.placed {
            await container.load(); report()
        }
        return ModuleSession(
            outputs: outputs,
            reload: {
                await first.value
                if container.current.phase == .failed { await container.retry() } else { await container.refresh() }
                report()
            },
            end: {
                container.cancel()
                continuation.finish()
            })
    }
}
