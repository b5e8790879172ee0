import ArgumentParser
import DecodeWatchCore
import Foundation

/// How a command ends when its answer names filter values that no stored batch ever carried: each warning on
/// standard error and exit 1, so that a typo never reads as "nothing broke" in a terminal, a script or CI. (The
/// release check keeps its verdict's exit code, `insufficient` for what it never saw, and adds the warnings.)
enum UnknownValues {
    /// Prints the answer, unless it is a table or CSV that would only show an empty list (JSON carries the
    /// warnings), then writes the warnings and exits 1 when there are any.
    /// - Parameters:
    ///   - answer: the answer, rendered.
    ///   - warnings: the answer's warnings.
    ///   - json: whether the answer is JSON.
    /// - Throws: `ExitCode(1)` after writing the warnings.
    static func print(_ answer: () -> String, warnings: [QueryWarning], json: Bool) throws {
        if warnings.isEmpty || json { Swift.print(answer(), terminator: "") }
        guard !warnings.isEmpty else { return }
        write(warnings, as: "Error")
        throw ExitCode(1)
    }

    /// Writes each warning on standard error, after a label (`Error`, `Warning`).
    static func write(_ warnings: [QueryWarning], as label: String) {
        for warning in warnings {
            FileHandle.standardError.write(Data("\(label): \(warning.message)\n".utf8))
        }
    }
}
