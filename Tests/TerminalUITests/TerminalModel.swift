import Foundation

@testable import TerminalUI

/// A small terminal for tests: a grid of cells that the bytes a painter writes are drawn into, answering the
/// questions a screen asks (cursor position `CSI 6 n`, device attributes `CSI c`, DECRQM for mode 2027) as a
/// real terminal does. It counts columns code point by code point, as Terminal.app, VS Code's terminal, kitty and
/// tmux 3.3a do: each code point its own width (East Asian Wide 2, marks and format characters none), spacing
/// marks none here (as wcwidth-based terminals), VS16 none, so ❤️ is 1, #️⃣ 1, ☝🏻 3, 👨‍👩‍👧 6. With `clustering` it
/// knows mode 2027, off until set, and once set draws each grapheme cluster at Unicode's width.
struct TerminalModel {
    let columns: Int
    let rows: Int
    /// What each cell shows: the cluster or code point drawn there, "" for the second cell of a wide one.
    private(set) var grid: [[String]]
    private(set) var row = 0
    private(set) var column = 0
    /// What the terminal sent back, in order.
    private(set) var replies: [[UInt8]] = []
    let clustering: Bool
    private(set) var clusteringOn = false
    /// Whether it answers anything at all (a terminal that answers nothing still draws).
    let answers: Bool

    init(columns: Int = 80, rows: Int = 40, clustering: Bool = false, answers: Bool = true) {
        (self.columns, self.rows, self.clustering, self.answers) = (columns, rows, clustering, answers)
        grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// Each row as text (wide cells once), trailing spaces removed.
    var lines: [String] {
        grid.map { cells in String(cells.joined().reversed().drop { $0 == " " }.reversed()) }
    }

    /// The columns this terminal gives one code point.
    static func width(_ scalar: Unicode.Scalar) -> Int {
        if scalar.properties.generalCategory == .spacingMark { return 0 }
        return DisplayWidth.columns(scalar.value)
    }

    /// Draws `text`: printable text, CR, LF (as a terminal's output processing turns it into CR LF), and the
    /// control sequences the painters and the width question write.
    mutating func feed(_ text: String) {
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.first {
            switch scalar {
            case "\u{1B}":
                scalars = scalars.dropFirst()
                guard scalars.first == "[" else {
                    scalars = scalars.dropFirst()
                    continue
                }
                scalars = scalars.dropFirst()
                let body = scalars.prefix { !(0x40...0x7E).contains($0.value) }
                scalars = scalars.dropFirst(body.count)
                guard let final = scalars.first else { return }
                scalars = scalars.dropFirst()
                control(String(String.UnicodeScalarView(body)), final)
            case "\r":
                column = 0
                scalars = scalars.dropFirst()
            case "\n":
                column = 0
                lineFeed()
                scalars = scalars.dropFirst()
            default:
                if clusteringOn {
                    // One grapheme cluster at a time, at Unicode's width.
                    let rest = String(String.UnicodeScalarView(scalars))
                    guard let cluster = rest.first else { return }
                    put(String(cluster), ClusterWidths.$current.withValue(.unicode) { DisplayWidth.of(cluster) })
                    scalars = scalars.dropFirst(cluster.unicodeScalars.count)
                } else {
                    put(String(scalar), Self.width(scalar))
                    scalars = scalars.dropFirst()
                }
            }
        }
    }

    private mutating func put(_ text: String, _ width: Int) {
        guard width > 0 else {
            // Drawn over the cell before, taking no column.
            if column > 0 { grid[row][column - 1] += text }
            return
        }
        if column + width > columns {
            column = 0
            lineFeed()
        }
        grid[row][column] = text
        if width == 2 { grid[row][column + 1] = "" }
        column += width
    }

    private mutating func lineFeed() {
        if row == rows - 1 {
            grid.removeFirst()
            grid.append(Array(repeating: " ", count: columns))
        } else {
            row += 1
        }
    }

    private mutating func control(_ body: String, _ final: Unicode.Scalar) {
        let number = Int(body.filter(\.isNumber)) ?? 0
        switch final {
        case "A": row = max(row - max(number, 1), 0)
        case "B": row = min(row + max(number, 1), rows - 1)
        case "H":
            let parts = body.split(separator: ";").map { Int($0) ?? 1 }
            (row, column) = (max((parts.first ?? 1) - 1, 0), max((parts.dropFirst().first ?? 1) - 1, 0))
        case "K":
            let from = number == 2 ? 0 : column
            for index in from..<columns { grid[row][index] = " " }
        case "J":
            for index in column..<columns { grid[row][index] = " " }
            for below in (row + 1)..<rows { grid[below] = Array(repeating: " ", count: columns) }
        case "n" where number == 6 && answers:
            replies.append(Array("\u{1B}[\(row + 1);\(column + 1)R".utf8))
        case "c" where answers:
            replies.append(Array("\u{1B}[?62;22c".utf8))
        case "p" where body == "?2027$" && answers:
            replies.append(Array("\u{1B}[?2027;\(clustering ? (clusteringOn ? 1 : 2) : 0)$y".utf8))
        case "h" where body == "?2027" && clustering: clusteringOn = true
        case "l" where body == "?2027" && clustering: clusteringOn = false
        default: break
        }
    }
}
