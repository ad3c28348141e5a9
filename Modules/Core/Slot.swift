/// Everything a running component reports, in order: the host paints from it, tests record it.
public enum SlotUpdate: Sendable, Equatable {
    /// The state machine moved; `from` is nil for the start state.
    case transition(from: Phase?, to: Phase)
    /// The component drew this card (nil: nothing to draw).
    case drew(Block?)
    /// The component sent an event to the host.
    case event(ComponentEvent)
    /// An answer arrived for a load that was cancelled or superseded and was thrown away.
    case dropped(generation: Int)
    /// Something the container refused to do, such as an illegal transition.
    case diagnostic(String)
}

/// The place a host gives a component to draw in; the host owns layout, the component owns the contents.
public struct Slot: Sendable {
    /// The component shown here.
    public let id: ComponentID
    private let sink: @Sendable (SlotUpdate) -> Void

    /// Creates a slot whose updates go to `sink`, called from any task, in order per slot.
    public init(id: ComponentID, sink: @escaping @Sendable (SlotUpdate) -> Void) {
        (self.id, self.sink) = (id, sink)
    }

    /// Reports an update to the host.
    public func post(_ update: SlotUpdate) { sink(update) }
}
