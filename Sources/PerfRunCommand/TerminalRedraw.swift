import Foundation

/// A block of text drawn on a terminal in place of the block drawn before
/// it (`log --follow`'s summary): the cursor goes back up over the rows
/// the last block took (a line wider than the terminal takes several) and
/// clears them; a block taller than the screen clears the screen instead,
/// since the cursor cannot go above its top. Only for a terminal: a file
/// or a pipe gets each block appended.
struct TerminalRedraw {
    /// The terminal's width and height in cells.
    let size: () -> (columns: Int, rows: Int)
    /// Rows the last block took.
    private(set) var rowsDrawn = 0

    init(size: @escaping () -> (columns: Int, rows: Int)) {
        self.size = size
    }

    /// A redraw on standard output, when it is a terminal.
    static func standardOutput() -> TerminalRedraw? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        return TerminalRedraw(size: { terminalSize(STDOUT_FILENO) })
    }

    /// The size of the terminal on `descriptor` (80 × 24 when it says none).
    static func terminalSize(_ descriptor: Int32) -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// The bytes that replace the last block with `block` (text ending
    /// with a line break, already escaped for the terminal).
    mutating func replace(with block: String) -> String {
        let (columns, rows) = size()
        var erase = ""
        if rowsDrawn >= rows {
            // Home, clear the screen.
            erase = "\u{1B}[H\u{1B}[2J"
        } else if rowsDrawn > 0 {
            // Up over the last block, to its first column; clear to the end of the screen.
            erase = "\r\u{1B}[\(rowsDrawn)A\u{1B}[J"
        }
        rowsDrawn = Self.rows(of: block, columns: columns)
        return erase + block
    }

    /// Rows `text` takes on a terminal `columns` wide: each line at least
    /// one, a longer one as many as it wraps to.
    static func rows(of text: String, columns: Int) -> Int {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if text.hasSuffix("\n") { lines.removeLast() }
        return lines.reduce(0) { total, line in
            let width = line.unicodeScalars.count
            return total + max(1, (width + columns - 1) / max(1, columns))
        }
    }
}
