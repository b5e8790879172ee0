/// Orders known names by how close they are to a typed one, for "did you mean" answers to typos.
///
/// Closeness is the edit distance (insertions, deletions and substitutions of one character, case ignored),
/// ties broken by name.
public enum NearestNames {
    /// The known names, nearest to `typed` first.
    /// - Parameters:
    ///   - typed: what a person typed.
    ///   - known: the names that exist.
    ///   - limit: the most names returned.
    public static func ordered(_ known: some Sequence<String>, by typed: String, limit: Int = .max) -> [String] {
        let target = Array(typed.lowercased())
        return Array(
            Set(known).map { (distance(Array($0.lowercased()), target), $0) }.sorted { $0 < $1 }.map(\.1).prefix(limit))
    }

    /// The known name a typo most likely meant: the nearest, when it is within a third of the typed length (at
    /// least one edit) of it; `nil` when nothing is that close.
    public static func suggestion(for typed: String, in known: some Sequence<String>) -> String? {
        guard let nearest = ordered(known, by: typed, limit: 1).first else { return nil }
        let edits = distance(Array(nearest.lowercased()), Array(typed.lowercased()))
        return edits <= max(1, typed.count / 3) ? nearest : nil
    }

    /// The Levenshtein distance of two character arrays, in one row of memory.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var row = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var diagonal = row[0]
            row[0] = i + 1
            for (j, y) in b.enumerated() {
                let above = row[j + 1]
                row[j + 1] = Swift.min(above + 1, row[j] + 1, diagonal + (x == y ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}
