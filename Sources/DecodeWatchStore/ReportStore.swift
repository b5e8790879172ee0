import DecodeWatchCore
import Foundation

/// Durable storage of grouped reports: what the collector writes and what every query reads.
///
/// Implementations must make ``ingest(_:)-([BatchAggregate])`` atomic and idempotent per `(app, batch_id)`,
/// and must apply every count as an addition so that several writers stay exact. One conformance suite
/// runs against every implementation.
public protocol ReportStore: Sendable {
    /// Stores batches in one transaction (a group commit): all of them, or none when it throws.
    /// - Parameter batches: batches folded into per-group deltas; one batch delivered twice among them is
    ///   stored once (the first) and counted once.
    /// - Returns: for each batch, in order, whether it was stored or had been stored before.
    /// - Throws: ``StoreError`` with code `unavailable` when storage cannot commit; nothing was stored then.
    func ingest(_ batches: [BatchAggregate]) async throws -> [IngestOutcome]

    /// The breaking-fields summary of docs/api.md#breaking-fields.
    /// - Parameter query: filters and window.
    /// - Returns: one entry per group with reports in the window.
    func fields(_ query: FieldsQuery) async throws -> FieldsSummary

    /// The summary (docs/api.md#breaking-fields) of some groups in `[since, until)`, most failures first: it reads only
    /// those groups' rollup rows, so one group's page costs the same however many groups fail.
    /// - Parameter environment: only this environment's reports, installs and decodes, or every environment's.
    /// - Returns: an entry per group with failures in the window.
    func fields(ofGroups groups: [String], environment: String?, since: Date, until: Date) async throws
        -> [FieldSummary]

    /// One app version's decodes per endpoint and reports per group in `[since, until)`, the numbers a release
    /// check judges (docs/api.md#release-check). Decodes stored before they were kept per version are not counted.
    /// - Parameter environment: only this environment's, or `nil` for every environment's.
    /// - Returns: the counts; empty for an app or version storage does not know.
    func versionCounts(
        app: String, version: String, environment: String?, since: Date, until: Date
    ) async throws -> VersionCounts

    /// Every value that stored batches carried for a filter, sorted: what an answer names when a query asks for a
    /// value never seen (``QueryWarning``).
    /// - Parameters:
    ///   - filter: the filter.
    ///   - app: for versions and endpoints, only this app's; `nil` for every app's.
    func knownValues(of filter: QueryFilter, app: String?) async throws -> [String]

    /// Marks a group resolved.
    /// - Parameters:
    ///   - group: the group id.
    ///   - at: the time of the decision; reports that occurred after it regress the group.
    /// - Throws: ``StoreError`` with code `notFound` when no group has that id.
    func resolve(group: String, at: Date) async throws

    /// Acknowledges from now on each batch that carries its ``BatchAggregate/source`` once it is in the store's log
    /// of acknowledged batches, and folds the logged batches into the rollups in the background. Calling it again
    /// changes nothing.
    /// - Parameter pipeline: decodes a batch from its body as it was received, for the batches a stopped
    ///   collector left in the log (``IngestPipeline/rebuild(_:receivedAt:)``).
    /// - Throws: ``StoreError`` with code `unavailable` when the log cannot be opened.
    func acknowledgeBeforeWriting(pipeline: IngestPipeline) throws

    /// Checks that storage can commit a write now, for `/readyz`: a collector that answers reads but cannot
    /// commit ingest must not be sent batches.
    /// - Throws: ``StoreError`` with code `unavailable` when it cannot.
    func checkReadiness() async throws

    /// Frees what the store keeps only to go faster (caches, idle connections), once ingest has gone quiet.
    func releaseMemory() async
}

extension ReportStore {
    /// Nothing to free.
    public func releaseMemory() async {}

    /// The summary of some groups in every environment
    /// (``fields(ofGroups:environment:since:until:)``).
    public func fields(ofGroups groups: [String], since: Date, until: Date) async throws -> [FieldSummary] {
        try await fields(ofGroups: groups, environment: nil, since: since, until: until)
    }

    /// Stores one batch in its own transaction.
    /// - Returns: whether it was stored or had been stored before.
    public func ingest(_ batch: BatchAggregate) async throws -> IngestOutcome {
        try await ingest([batch])[0]
    }
}

/// What ``ReportStore/ingest(_:)-([BatchAggregate])`` did with a batch.
public enum IngestOutcome: Sendable, Hashable {
    /// The batch was committed.
    case stored
    /// A batch with the same app and id was stored before; nothing was counted again.
    case duplicate
}
