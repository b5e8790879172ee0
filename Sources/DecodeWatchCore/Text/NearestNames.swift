/// Orders known names by how close they are to a typed one, for "did you mean" answers to typos.
///
/// Closeness is the edit distance (insertions, deletions, substitutions and swaps of neighbouring characters, case
/// ignored), ties broken by name.
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

    /// The optimal string alignment distance of two character arrays: insertions, deletions, substitutions and
    /// swaps of two neighbours (`feilds` is one edit from `fields`).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = Swift.min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = Swift.min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
