import Core
import Foundation
import ScreenRuntime
import TerminalUI

/// The painter, shared by the runtime's frames and the terminal's resume handler: each frame sets every card's
/// block and visibility (a stale card gets its "as of" line), and a live painter rewrites only what changed.
final class PaintedScreen: Sendable {
    private let painter: Locked<FramePainter>

    init(_ painter: FramePainter) { self.painter = Locked(painter) }

    func paint(_ change: (inout FramePainter) -> Void) { painter.withLock { change(&$0) } }

    func read<T>(_ read: (FramePainter) -> T) -> T { painter.withLock { read($0) } }

    /// Shows `frame`'s cards.
    func show(_ frame: ScreenFrame) {
        paint { painter in
            for (index, card) in frame.cards.enumerated() {
                painter.update(index, block: .some(card.shownBlock), hidden: !card.visible)
            }
        }
    }
}

extension CardFrame {
    /// The card's block as shown, with "as of HH:MM:SS" (local time) under it while it is stale: the last info a
    /// person saw stays, and says how old it is.
    public var shownBlock: Block? {
        guard let since = staleSince, var block else { return block }
        block.rows.append(Row("as of \(ScreenOutput.clockTime(since))", value: "stale", style: .warning))
        return block
    }
}
