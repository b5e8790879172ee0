import DecodeWatchCore
import Foundation
import Metrics

/// Where the collector writes grouped reports: the ingest role of storage (reads are ``FieldReads``).
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

    /// Opens the store's log of acknowledged batches and starts folding it: a sink that acknowledges each batch once
    /// it is in the log (``BatchSink``). Batches a stopped collector left in the log are folded first. A collector
    /// makes one, at start; a second on the same store would fold the same log alongside it.
    /// - Parameters:
    ///   - pipeline: decodes a batch from its body as it was received, for the batches a stopped
    ///     collector left in the log (``IngestPipeline/rebuild(_:receivedAt:)``).
    ///   - metrics: where the folder counts its folds and pending batches.
    /// - Throws: ``StoreError`` with code `unavailable` when the log cannot be opened.
    func loggedSink(pipeline: IngestPipeline, metrics: any MetricsFactory) throws -> any BatchSink

    /// Checks that the database can commit a write now (``BatchSink/checkReadiness()`` for the sink).
    /// - Throws: ``StoreError`` with code `unavailable` when it cannot.
    func checkReadiness() async throws

    /// Frees what the store keeps only to go faster (caches, idle connections), once ingest has gone quiet.
    func releaseMemory() async
}

extension ReportStore {
    /// Nothing to free.
    public func releaseMemory() async {}

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
