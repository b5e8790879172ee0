import DecodeWatchCore

/// Acknowledges each batch once its rollups are written: ``ReportStore/ingest(_:)-([BatchAggregate])``, one
/// transaction per group commit. The body is not kept.
public struct DirectBatchSink: BatchSink {
    private let store: any ReportStore

    /// A sink that writes to `store`.
    public init(store: any ReportStore) {
        self.store = store
    }

    public func commit(_ batches: [ReceivedBatch]) async throws -> [IngestOutcome] {
        try await store.ingest(batches.map(\.aggregate))
    }

    /// Nothing to wait for: every batch this sink acknowledged is in the rollups already.
    public func settle() async throws {}

    public func checkReadiness() async throws {
        try await store.checkReadiness()
    }
}
