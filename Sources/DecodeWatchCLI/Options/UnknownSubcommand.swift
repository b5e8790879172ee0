import ArgumentParser
import DecodeWatchCore

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
                    NearestNames.suggestion(for: word, in: names).map { "did you mean '\($0)'?" }
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
}
