/// A key a person pressed on a live screen (HostIO decodes it from the terminal's bytes); a screen's state
/// takes it as an action.
public enum Key: Sendable, Equatable {
    /// ← and →.
    case left, right
    /// ↑, ↓, Page Up, Page Down, Home and End: they scroll a screen taller than the window.
    case up, down, pageUp, pageDown, home, end
    /// Tab and Shift-Tab.
    case tab, backTab
    /// Enter, Backspace (DEL or BS) and Esc on its own.
    case enter, backspace, escape
    /// A printable character (letters, digits, punctuation; any script).
    case character(Character)
    /// Text the terminal marked as pasted (bracketed paste): it may fill an input line, never act as keys.
    case paste(String)
}
