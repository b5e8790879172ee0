import ArgumentParser
import DecodeWatchStore
import Foundation
import Logging

/// Where the reports are stored; shared by every command that reads or writes them.
struct StoreOptions: ParsableArguments {
    @Option(help: "SQLite database file. Default: $DECODEWATCH_DB, else ./decodewatch.sqlite.")
    var db: String?

    /// The database path after the environment and the default are applied.
    var path: String {
        db ?? ProcessInfo.processInfo.environment["DECODEWATCH_DB"] ?? "decodewatch.sqlite"
    }

    /// Opens the store, creating the database when needed.
    func openStore(logger: Logger) throws -> any ReportStore & CredentialStore {
        try SQLiteReportStore(path: path, logger: logger)
    }
}
