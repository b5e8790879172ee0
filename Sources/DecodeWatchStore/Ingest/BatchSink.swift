import DecodeWatchCore

/// Where ingest commits batches, and so when a batch is acknowledged: the one choice of the data path.
///
/// The collector builds one sink at start (`buildApplication`, from `ServerConfiguration.ingestMode`) and hands it
/// to its group commit; nothing changes it afterwards. ``DirectBatchSink`` acknowledges a batch once its rollups are
/// written; the logged sink a store makes (``ReportStore/loggedSink(pipeline:metrics:)``) once the batch is in the
/// store's log of acknowledged batches, and folds the log into the rollups in the background.
public protocol BatchSink: Sendable {
    /// Commits batches in one transaction: all of them, or none when it throws.
    /// - Parameter batches: one batch delivered twice among them is stored once (the first) and counted once.
    /// - Returns: for each batch, in order, whether it was stored or had been stored before.
    /// - Throws: ``StoreError`` with code `unavailable` when nothing could be committed.
    func commit(_ batches: [ReceivedBatch]) async throws -> [IngestOutcome]

    /// Returns once every batch this sink acknowledged before the call is in the rollups: what a read waits for,
    /// once per request, so that an acknowledged batch is in every answer.
    /// - Throws: ``StoreError`` while the rollups cannot be written: a reader must not see them without those batches.
    func settle() async throws

    /// Commits a one-row write where ``commit(_:)`` commits, for `/readyz`: a collector that cannot acknowledge
    /// batches must not be sent them.
    /// - Throws: ``StoreError`` with code `unavailable` when it cannot.
    func checkReadiness() async throws
}
