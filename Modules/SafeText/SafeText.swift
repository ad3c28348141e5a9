/// Strings from outside (backend payloads, stored records, file names, other programs' errors) made safe to
/// draw on a terminal or write into a log line: a control character could clear the screen (`ESC[2J`), write
/// the clipboard (OSC 52), start a CSI in one byte (C1 `0x9B`), move the cursor (CR, backspace) or break one
/// diagnostic into two lines. Each is shown visibly instead, so nothing is hidden and nothing is executed.
public enum SafeText {
    /// `text` with every C0 control, DEL, C1 control, line or paragraph separator and bidirectional control
    /// replaced by a visible stand-in of one column (C0 and DEL by their Unicode control pictures, "␛" for
    /// ESC, "␊" for a newline; the others by "�"). Printable text, tabs included as "␉", is otherwise unchanged.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isUnsafe(scalar) else {
                result.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x00..<0x20: result.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: result.append("\u{2421}")
            default: result.append("\u{FFFD}")
            }
        }
        return String(result)
    }

    /// Whether `scalar` must never reach a terminal as it is: a control a terminal acts on, a line or paragraph
    /// separator, or an invisible bidirectional control that reorders what is shown around it (the embeddings and
    /// overrides U+202A–U+202E, the isolates U+2066–U+2069, the marks U+200E, U+200F and U+061C: a right-to-left
    /// override in a restaurant's name can show a card's text, or a diagnostic, backwards). The one list both the
    /// text outputs (``visible(_:)``) and JSON's escaping (the JSON library) hold to.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
