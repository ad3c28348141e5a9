import Core
import SafeText
import ScreenRuntime
import TerminalUI

extension ScreenConsole {
    /// The whole live screen at `width` columns: the title, the bar, the body (the cards, or the selected tab's
    /// screen), what is open, a message, and the line that says which keys do what. Every line fits the width, so
    /// a narrow or resized terminal never wraps a border.
    public func lines(
        title: String, bar: String?, body: [String], updated: String?, width: Int, styler: TextStyler
    ) -> [String] {
        let cardWidth = CardRenderer.width(forColumns: width)
        func fit(_ text: String) -> String { DisplayWidth.truncate(text, to: max(width, 1)) }
        var lines = [styler.apply(.bold, fit(title))]
        if let bar { lines.append(bar) }
        lines += body
        if let block = overlayBlock { lines += CardRenderer.lines(for: block, width: cardWidth, styler: styler) }
        // A message may carry the backend's words (an action's answer): shown, never obeyed.
        if let message { lines.append(styler.apply(.warning, fit(SafeText.visible(message)))) }
        switch overlay {
        case .prompt(let key, let typed):
            let label = prompts.first { $0.key == key }?.label ?? ""
            lines.append(fit("\(label): \(typed)▏  Enter applies · Esc abandons"))
        default:
            let time = updated.map { "updated \($0) · " } ?? ""
            lines.append(styler.apply(.dim, fit("\(time)? keys · q quit")))
        }
        return lines
    }

    private var overlayBlock: Block? {
        switch overlay {
        case .none, .prompt: return nil
        case .help:
            return Block(title: "Keys", rows: keyHelp.map { Row($0.keys, value: $0.effect) })
        case .action(_, let title, let said, let question):
            let last = question.map { Row("\($0) (y/n)", style: .bold) } ?? Row("Esc closes", style: .dim)
            return Block(title: title, rows: said.map { Row($0) } + [last])
        case .confirmTab(_, let question):
            return Block(title: question, rows: [Row("\(question) (y/n)", style: .bold)])
        }
    }
}
