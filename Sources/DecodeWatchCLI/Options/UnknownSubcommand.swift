import ArgumentParser

/// A word where a subcommand belongs that names none, answered with the nearest subcommand.
///
/// ArgumentParser suggests the nearest flag for a mistyped one, but answers a mistyped subcommand with
/// "Unexpected argument" and no suggestion. This answers it as ArgumentParser answers other usage errors:
/// one line on standard error, the usage of the command the word was given to, exit 64.
enum UnknownSubcommand {
    /// The whole report for the first word of `arguments` that stands where a subcommand of `root` (or of one
    /// of its subcommands) is expected and names none.
    /// - Returns: `nil` when there is no such word: every word names a subcommand, or an option, ArgumentParser's
    ///   `help` or a command's own arguments come first.
    static func report(arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = [root._commandName]
        for word in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !word.hasPrefix("-"), word != "help" else { return nil }
            guard let next = subcommands.first(where: { $0._commandName == word }) else {
                let names = subcommands.map { $0._commandName }
                let hint =
                    nearest(to: word, in: names).map { "did you mean '\($0)'?" }
                    ?? "the subcommands are \(names.joined(separator: ", "))."
                return """
                    Error: Unknown subcommand '\(word)'; \(hint)
                    Usage: \(root.usageString(for: command))
                      See '\(path.joined(separator: " ")) --help' for more information.
                    """
            }
            command = next
            path.append(word)
        }
        return nil
    }

    /// The name closest to `word` by edit distance, if it is close enough to be what was meant: at most a
    /// third of its letters wrong, and at least one (two neighbours swapped count as one).
    static func nearest(to word: String, in names: [String]) -> String? {
        let scored = names.map { (name: $0, distance: distance(word.lowercased(), $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= max(1, word.count / 3)
        else { return nil }
        return best.name
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
