import GRDB

extension SQLiteReportStore {
    /// Commits a one-row write where ingest commits: the log of acknowledged batches once
    /// ``acknowledgeBeforeWriting(rebuild:)`` was called, the database otherwise. So `/readyz` stays 200 while
    /// another process locks the database (ingest goes on from the log) and is 503 when the log cannot commit.
    public func checkReadiness() async throws {
        guard let applier = applier.withLock({ $0 }) else { return try await commitReadinessWrite() }
        do {
            try await applier.checkReadiness()
        } catch let error as DatabaseError {
            throw StoreError(
                .unavailable, "The SQLite log of acknowledged batches cannot commit: \(Self.describe(error)).")
        }
    }
}
