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

/// Whether an operation only reads (one consistent snapshot) or writes (one atomic transaction).
package enum SQLAccess: Sendable {
    /// Reads only, after the batches acknowledged before are in the rollups.
    case read
    /// Reads only what ingest does not write (credentials, readiness): without waiting for acknowledged batches.
    case lookup
    /// Writes, all or nothing.
    case write
}

/// What a store operation does next: run a statement and continue with its rows, or finish.
///
/// Operations are written once as chains of steps over SQL both databases understand; a backend
/// only runs the chain inside one transaction (``SQLStore/perform(_:access:)``). SQLite runs it
/// synchronously on its writer, PostgreSQL asynchronously on a pooled connection.
package enum SQLStep<Result: Sendable>: Sendable {
    /// Runs the statement, then continues with what the closure makes of its rows.
    case run(SQLStatement, then: @Sendable ([SQLRecord]) throws -> SQLStep<Result>)
    /// Runs the statements in order, then continues with what the closure makes of the rows of each. They do not
    /// depend on one another's rows, so a store may send each as soon as the one before it ends.
    case runEach([SQLStatement], then: @Sendable ([[SQLRecord]]) throws -> SQLStep<Result>)
    /// Finishes with a result.
    case done(Result)

    /// Runs one statement and finishes with what its rows decode to.
    package static func fetch(_ statement: SQLStatement, _ decode: @escaping @Sendable ([SQLRecord]) throws -> Result)
        -> SQLStep
    {
        .run(statement) { rows in .done(try decode(rows)) }
    }

    /// Runs statements in order (``runEach(_:then:)``), then continues with the rows of each.
    /// - Throws: what `then` throws when there are no statements to run first.
    package static func runAll(
        _ statements: [SQLStatement], then: @escaping @Sendable ([[SQLRecord]]) throws -> SQLStep
    ) throws -> SQLStep {
        statements.isEmpty ? try then([]) : .runEach(statements, then: then)
    }

    /// Runs this chain, then the chain `next` makes of its result.
    /// - Throws: what `next` throws when this chain is already done.
    package func then<Next: Sendable>(_ next: @escaping @Sendable (Result) throws -> SQLStep<Next>) throws
        -> SQLStep<Next>
    {
        switch self {
        case .done(let result): return try next(result)
        case .run(let statement, let continuation):
            return .run(statement) { rows in try continuation(rows).then(next) }
        case .runEach(let statements, let continuation):
            return .runEach(statements) { rows in try continuation(rows).then(next) }
        }
    }
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
