import Foundation
import Testing

/// The storage back ends the executable is tested on; each test gets a fresh SQLite file or a fresh
/// PostgreSQL schema (the collector creates it) on the server `scripts/test` starts.
enum Storage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }

    /// The flags that point every command of one test at its database.
    /// - Parameter folder: the test's temporary folder, for the SQLite file.
    /// - Throws: when PostgreSQL is asked for and `DECODEWATCH_TEST_DATABASE_URL` is not set.
    func flags(in folder: URL) throws -> [String] {
        switch self {
        case .sqlite:
            return ["--db", folder.appendingPathComponent("cli.sqlite").path]
        case .postgres:
            let schema = "cli_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let url = try Self.serverURL()
            return ["--database-url", url + (url.contains("?") ? "&" : "?") + "schema=\(schema)"]
        }
    }

    /// The test server's URL.
    static func serverURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["DECODEWATCH_TEST_DATABASE_URL"], !url.isEmpty else {
            throw StorageSetupError()
        }
        return url
    }

    /// A secret no output may show: the test server's password.
    static var password: String? {
        (try? serverURL()).flatMap { URLComponents(string: $0)?.password }
    }
}

/// The PostgreSQL half cannot run: it must fail, never skip.
struct StorageSetupError: Error, CustomStringConvertible {
    var description: String {
        "DECODEWATCH_TEST_DATABASE_URL is not set, so the PostgreSQL tests of the executable cannot run. "
            + "Run the tests with scripts/test, which starts a private PostgreSQL and sets it."
    }
}
