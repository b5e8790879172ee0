import DecodeWatchCore

/// Acknowledges each batch once it is in the store's ``BatchLog``, and folds the log into the rollups in the
/// background, many batches per transaction (``BatchFolder``): an acknowledgement never waits behind a fold.
package struct LoggedBatchSink: BatchSink {
    let folder: BatchFolder

    package func commit(_ batches: [ReceivedBatch]) async throws -> [IngestOutcome] {
        try await folder.acknowledge(batches)
    }

    package func settle() async throws {
        try await folder.settle()
    }

    package func checkReadiness() async throws {
        try await folder.checkReadiness()
    }
}
