/// A plain-text table for the terminal: columns padded to their widest cell, two spaces apart.
///
/// Every table the CLI prints goes through here, so headers line up with their rows. Widths are display
/// widths (``displayWidth(_:)``), not character counts, so an app name in CJK or with an emoji does not
/// push the columns after it out of line.
enum TextTable {
    /// The rows, the header first, each line ending in a newline.
    /// - Parameters:
    ///   - rows: the cells; a short row is padded with empty cells.
    ///   - rightAligned: the columns whose cells (numbers) are aligned to the right.
    static func render(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
        lines(rows, rightAligned: rightAligned).map { $0 + "\n" }.joined()
    }

    /// The rows as lines without newlines, for layouts that put more lines between the rows.
    static func lines(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? displayWidth($0[column]) : 0 }.max() ?? 0
        }
        return rows.map { row in
            (0..<columns).map { column in
                let cell = column < row.count ? row[column] : ""
                let padding = String(repeating: " ", count: widths[column] - displayWidth(cell))
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }

    /// How many terminal columns a string takes: two for East Asian wide characters and emoji, one for
    /// any other character (a character with combining marks is one character).
    static func displayWidth(_ text: String) -> Int {
        text.reduce(0) { width, character in
            let wide = character.unicodeScalars.contains { scalar in
                scalar.properties.isEmojiPresentation || wideRanges.contains { $0.contains(scalar.value) }
            }
            return width + (wide ? 2 : 1)
        }
    }

    /// The East Asian Wide and Fullwidth blocks (Unicode UAX #11), by block rather than code point.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD,
    ]
}
