/// A plain-text table for the terminal: columns padded to their widest cell, two spaces apart.
enum TextTable {
    /// The rows, the header first, each line ending in a newline.
    static func render(_ rows: [[String]]) -> String {
        let widths = (rows.first ?? []).indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }
}
