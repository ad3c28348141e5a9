import Core
import Foundation
import ScreenRuntime
import TerminalUI

extension CardFrame {
    /// The card's block as shown, with "as of HH:MM:SS" (local time) under it while it is stale: the last info a
    /// person saw stays, and says how old it is.
    public var shownBlock: Block? {
        guard let since = staleSince, var block else { return block }
        block.rows.append(Row("as of \(ScreenOutput.clockTime(since))", value: "stale", style: .warning))
        return block
    }
}

extension ScreenFrame {
    /// The cards as the painter draws them: each one's shown block, or nothing while it is hidden.
    var slots: [SlotView] { cards.map { SlotView(id: $0.id, block: $0.shownBlock, hidden: !$0.visible) } }

    /// What a text frame of it shows: the blocks of the cards on screen, in order. Two frames that agree on it
    /// read the same.
    var shownBlocks: [Block] { cards.compactMap { $0.visible ? $0.shownBlock : nil } }
}
