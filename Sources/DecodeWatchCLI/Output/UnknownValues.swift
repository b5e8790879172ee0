import ArgumentParser
import DecodeWatchCore
import Foundation

/// How a command ends when its answer names filter values that no stored batch ever carried: each warning on
/// standard error and exit 1, so that a typo never reads as "nothing broke" in a terminal, a script or CI. (The
/// release check keeps its verdict's exit code, `insufficient` for what it never saw, and adds the warnings.)
enum UnknownValues {
    /// Whether the answer itself is worth printing: JSON carries the warnings; a table or CSV would only show an
    /// empty list.
    static func printsAnswer(_ warnings: [QueryWarning], json: Bool) -> Bool {
        warnings.isEmpty || json
    }

    /// Writes the warnings and exits 1 when there are any.
    /// - Throws: `ExitCode(1)` after writing them.
    static func exitIfAny(_ warnings: [QueryWarning]) throws {
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
