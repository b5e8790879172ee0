import Foundation

/// A value bound to a statement or read from a row: the only types the stores' tables hold.
package enum SQLValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit integer (`INTEGER` in SQLite, `BIGINT` in PostgreSQL).
    case integer(Int64)
    /// Text.
    case text(String)
    /// Bytes (`BLOB` in SQLite, `bytea` in PostgreSQL).
    case blob(Data)

    /// Text, or `NULL` for `nil`.
    package init(_ text: String?) { self = text.map(SQLValue.text) ?? .null }

    /// An integer, or `NULL` for `nil`.
    package init(_ integer: Int64?) { self = integer.map(SQLValue.integer) ?? .null }

    /// A time as milliseconds since 1970, the time unit of both databases.
    package init(_ date: Date) { self = .integer(date.milliseconds) }
}

/// SQL text and its arguments, bound by position (`?1` / `$1`, see ``SQLDialect/parameter(_:)``).
package struct SQLStatement: Sendable, Hashable {
    /// The text.
    package var sql: String
    /// The arguments, the first bound to parameter 1.
    package var arguments: [SQLValue]
    /// Whether a backend should keep the statement prepared for the next one with the same text. Only for
    /// texts that recur from a small set, such as the ingest inserts (``SQLDialect/statementSizes(rows:max:)``):
    /// a cache keyed by text that any query could fill would grow without bound.
    package var isReused: Bool

    /// Creates a statement.
    package init(_ sql: String, _ arguments: [SQLValue] = [], isReused: Bool = false) {
        self.sql = sql
        self.arguments = arguments
        self.isReused = isReused
    }
}

/// One row of a result, read by column name; the same for every backend.
package struct SQLRecord: Sendable {
    /// Column name → position, shared by the rows of one result.
    package let columns: [String: Int]
    /// The values, in column order.
    package let values: [SQLValue]

    /// Creates a row.
    package init(columns: [String: Int], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value of a column; a column the statement does not select is a programming error.
    package subscript(column: String) -> SQLValue {
        guard let index = columns[column] else { preconditionFailure("No column '\(column)' in the result") }
        return values[index]
    }

    /// Text, or `nil` for `NULL`.
    /// - Throws: ``StoreError`` `unavailable` when the column holds something else.
    package func optionalText(_ column: String) throws -> String? {
        switch self[column] {
        case .null: return nil
        case .text(let text): return text
        case .integer, .blob: throw StoreError.unexpectedValue(column)
        }
    }

    /// An integer, or `nil` for `NULL`.
    /// - Throws: ``StoreError`` `unavailable` when the column holds something else.
    package func optionalInteger(_ column: String) throws -> Int64? {
        switch self[column] {
        case .null: return nil
        case .integer(let integer): return integer
        case .text, .blob: throw StoreError.unexpectedValue(column)
        }
    }

    /// Bytes that are never `NULL`.
    /// - Throws: ``StoreError`` `unavailable` when the column holds something else.
    package func blob(_ column: String) throws -> Data {
        guard case .blob(let data) = self[column] else { throw StoreError.unexpectedValue(column) }
        return data
    }

    /// Text that is never `NULL`.
    package func text(_ column: String) throws -> String {
        guard let text = try optionalText(column) else { throw StoreError.unexpectedValue(column) }
        return text
    }

    /// An integer that is never `NULL`.
    package func integer(_ column: String) throws -> Int64 {
        guard let integer = try optionalInteger(column) else { throw StoreError.unexpectedValue(column) }
        return integer
    }

    /// A count; stored counts and capped sums always fit in `Int`.
    package func count(_ column: String) throws -> Int { Int(try integer(column)) }

    /// A time stored as milliseconds since 1970, or `nil` for `NULL`.
    package func optionalDate(_ column: String) throws -> Date? {
        try optionalInteger(column).map(Date.init(milliseconds:))
    }

    /// A time stored as milliseconds since 1970.
    package func date(_ column: String) throws -> Date { Date(milliseconds: try integer(column)) }
}

/// Whether an operation only reads (one consistent snapshot) or writes (one atomic transaction), and so how a
/// store opens its ``SQLTransaction``.
package enum SQLAccess: Sendable {
    /// Reads only, after the batches acknowledged before are in the rollups.
    case read
    /// Reads only what ingest does not write (credentials, readiness): without waiting for acknowledged batches.
    case lookup
    /// Writes, all or nothing.
    case write
}

/// The transaction a store operation runs its statements in (``SQLStore/perform(access:_:)``).
///
/// Operations are written once, as plain synchronous code over SQL both databases understand: each statement
/// runs when the operation asks for it and answers with its rows, so an operation reads top to bottom. SQLite
/// runs the operation inside GRDB's transaction closure on its writer or a reader; PostgreSQL on a thread of its
/// own pool, each statement a round trip on the transaction's connection.
package protocol SQLTransaction {
    /// Runs a statement and returns its rows.
    /// - Throws: what the database threw; the transaction is then rolled back once the operation ends.
    func run(_ statement: SQLStatement) throws -> [SQLRecord]

    /// Runs statements in order and returns the rows of each, in the same order. They do not depend on one
    /// another's rows, so a store may send each before the one before it is answered (PostgreSQL queues them on
    /// its connection); no statements make no round trip.
    /// - Throws: the first statement's error; the ones after it are not run, or fail with it.
    func run(_ statements: [SQLStatement]) throws -> [[SQLRecord]]
}

extension StoreError {
    /// A column held a value of another type than the schema says: a damaged database or a bug.
    package static func unexpectedValue(_ column: String) -> StoreError {
        StoreError(.unavailable, "The database returned an unexpected value in column \(column).")
    }
}

extension Date {
    /// Milliseconds since 1970, the time unit of both databases.
    package var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    package init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }
}
