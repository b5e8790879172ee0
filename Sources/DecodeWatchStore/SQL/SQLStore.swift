import DecodeWatchCore
import Foundation

/// A store whose behaviour is written once, in SQL that SQLite and PostgreSQL both understand.
///
/// Every requirement of ``ReportStore``, ``CredentialStore`` and ``DigestStore`` is implemented in
/// the extensions of this protocol as straight-line code over a ``SQLTransaction``; a backend supplies
/// its dialect and runs that code inside one transaction. So both backends count, group and claim exactly
/// alike, and one conformance suite checks the shared logic and each backend's transactions.
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

    /// Runs `body` in one transaction: a consistent snapshot for reads, all or nothing for writes.
    ///
    /// `body` is synchronous and runs its statements one after another (``SQLTransaction``): SQLite runs it in
    /// GRDB's transaction closure, PostgreSQL on a thread of the store's own, never on a task's or an event
    /// loop's thread. It must not keep the transaction once it returns.
    /// - Parameters:
    ///   - access: whether `body` writes.
    ///   - body: the operation; what it throws rolls the transaction back.
    /// - Returns: what `body` returned, after the transaction committed.
    /// - Throws: ``StoreError`` with code `unavailable` when the database cannot answer or commit
    ///   (nothing was written then), or what `body` threw.
    func perform<Result: Sendable>(
        access: SQLAccess, _ body: @escaping @Sendable (any SQLTransaction) throws -> Result
    ) async throws -> Result

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
        let changed = try await perform(access: .write) { try $0.run(statement).count }
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
        _ = try await perform(access: .write) { try $0.run(statement).count }
    }
}
