import Foundation

/// Reads a secret without putting it on the command line, where other users see it in process lists and it stays in
/// the shell's history: from a prompt that does not echo on a terminal, else as one line of standard input
/// (`echo "$TOKEN" | decodewatch login …`).
enum TokenPrompt {
    /// Reads one line, without its surrounding white space.
    /// - Parameter prompt: what a person at a terminal is asked, on standard error.
    /// - Returns: the line; empty when standard input ended first or held an empty line.
    static func read(prompt: String) -> String {
        let line = isatty(STDIN_FILENO) == 1 ? readWithoutEcho(prompt: prompt) : readLine(strippingNewline: true)
        return (line ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Asks at the terminal with its echo off, and turns the echo back on after the line, and also when the process
    /// is interrupted or stopped by a signal while it waits, so that the shell is never left without echo.
    private static func readWithoutEcho(prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return readLine(strippingNewline: true) }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        savedTerminal = original
        let previous = interruptions.map { ($0, signal($0, restoreTerminalAndResignal)) }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            for (number, handler) in previous { signal(number, handler) }
            savedTerminal = nil
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }

    /// The signals that end a process waiting at the prompt (Ctrl-C, Ctrl-\, a closed terminal, `kill`).
    private static let interruptions = [SIGINT, SIGQUIT, SIGHUP, SIGTERM]
}

/// The terminal's settings before the prompt turned its echo off, for the signal handler; `nil` outside the prompt.
/// Written only by the thread that prompts, before the handler is installed and after it is removed.
nonisolated(unsafe) private var savedTerminal: termios?

/// Restores the terminal's echo, then ends the process with the signal it got, as if no handler had been installed
/// (so the shell sees an interrupted command). Calls only async-signal-safe functions.
private func restoreTerminalAndResignal(_ number: Int32) {
    if var terminal = savedTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &terminal) }
    signal(number, SIG_DFL)
    raise(number)
}
