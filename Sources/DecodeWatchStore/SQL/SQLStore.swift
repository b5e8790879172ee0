import DecodeWatchCore
import Foundation

/// A store whose behaviour is written once, in SQL that SQLite and PostgreSQL both understand.
///
/// Every requirement of ``ReportStore``, ``CredentialStore`` and ``DigestStore`` is implemented in
/// the extensions of this protocol as chains of ``SQLStep``s; a backend supplies its dialect and
/// runs a chain inside one transaction. So both backends count, group and claim exactly alike, and
/// one conformance suite checks the shared logic and each backend's transactions.
package protocol SQLStore: CollectorStore {
    /// How this backend spells what the databases spell differently.
    var dialect: SQLDialect { get }

    /// How many read transactions a summary runs at once, each summing its own part of the groups
    /// (``GroupSlice``): the window's totals over every group are most of a summary's time.
    var readSlices: Int { get }

    /// The contract documents this store already decoded.
    var decodedContracts: DecodedContracts { get }

    /// The install rows of recent cells this store committed, which later commits leave out.
    var committedInstalls: CommittedInstalls { get }

    /// Runs a chain of steps in one transaction: a consistent snapshot for reads, all or nothing for writes.
    /// - Parameters:
    ///   - step: the first step.
    ///   - access: whether the chain writes.
    /// - Returns: the chain's result, after the transaction committed.
    /// - Throws: ``StoreError`` with code `unavailable` when the database cannot answer or commit
    ///   (nothing was written then), or what a step threw.
    func perform<Result: Sendable>(_ step: SQLStep<Result>, access: SQLAccess) async throws -> Result

    /// What the store keeps about the log of acknowledged batches (``loggedSink(pipeline:metrics:)``).
    var logState: BatchLogState { get }

    /// Opens (creating if needed) the log this collector appends acknowledged batches to and folds.
    /// - Throws: ``StoreError`` with code `unavailable` when it cannot be opened.
    func openBatchLog() throws -> any BatchLog

    /// The log collectors append to, for reads to wait for their batches; `nil` when there is none.
    func existingBatchLog() throws -> (any BatchLog)?
}

extension SQLStore {
    public func resolve(group: String, at date: Date) async throws {
        let statement = dialect.statement(
            """
            UPDATE groups SET state = 'resolved', resolved_at = \(bind: SQLValue(date))
            WHERE group_id = \(bind: .text(group)) RETURNING group_id
            """)
        let changed = try await perform(.fetch(statement) { $0.count }, access: .write)
        guard changed > 0 else {
            throw StoreError(.notFound, "No group has the id '\(group)'; list groups with `decodewatch fields`.")
        }
    }

    /// Upserts the one row of `readiness_checks` in a write transaction.
    package func commitReadinessWrite() async throws {
        let statement = dialect.statement(
            """
            INSERT INTO readiness_checks (id, checked_at) VALUES (1, \(bind: SQLValue(Date())))
            ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at
            """)
        _ = try await perform(.fetch(statement) { $0.count }, access: .write)
    }
}
