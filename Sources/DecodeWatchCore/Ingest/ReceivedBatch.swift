/// A batch as ingest hands it to storage: aggregated for the rollups, with the body it was
/// decoded from.
///
/// The body goes with every batch: a sink that acknowledges batches once they are logged keeps it, so that after a
/// crash the batch can be decoded again (``IngestPipeline/rebuild(_:receivedAt:)``); one that writes the rollups
/// first does not need it.
public struct ReceivedBatch: Sendable {
    /// What storage writes.
    public var aggregate: BatchAggregate
    /// The body as received.
    public var source: BatchSource

    /// Pairs an aggregate with its body.
    public init(_ aggregate: BatchAggregate, source: BatchSource) {
        self.aggregate = aggregate
        self.source = source
    }
}
