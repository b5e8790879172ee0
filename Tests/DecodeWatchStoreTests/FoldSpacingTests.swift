import DecodeWatchCore
import Foundation
import Logging
import Metrics
import Synchronization
import Testing

@testable import DecodeWatchStore

/// A fold waits a moment after the previous one for more batches to arrive, so that it folds many at once; the
/// wait must never hold up a read, which waits for every acknowledged batch to be folded, nor a full fold's worth.
@Suite("The wait between folds gives way to readers and full folds")
struct FoldSpacingTests {
    /// Far longer than any test may take: a test that waits it out fails on its time limit below.
    private static let spacing = Duration.seconds(60)
    private static let limit = Duration.seconds(10)

    @Test("a read waits for the acknowledged batches' fold, not for the wait between folds")
    func readCutsTheWaitShort() async throws {
        try await withApplier { applier, folded in
            #expect(try await applier.acknowledge([try AcknowledgedBatch.make()]) == [.stored])
            let started = ContinuousClock.now
            try await applier.settle()
            #expect(ContinuousClock.now - started < Self.limit)
            #expect(folded() == 1)
        }
    }

    @Test("a full fold's worth of acknowledged batches is folded without waiting between folds")
    func fullFoldCutsTheWaitShort() async throws {
        try await withApplier { applier, folded in
            let batches = try (0..<ScriptedLog.foldSize).map { _ in try AcknowledgedBatch.make() }
            // One batch first: the writer then waits for more, until the rest make a full fold. It announces no
            // start of its wait, so it is given the time to begin it.
            _ = try await applier.acknowledge([batches[0]])
            try await Task.sleep(for: .milliseconds(50))
            _ = try await applier.acknowledge(Array(batches.dropFirst()))
            let deadline = ContinuousClock.now + Self.limit
            while folded() < batches.count, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(folded() == batches.count)
        }
    }

    /// Runs `body` with a folder whose folds only count their batches, and a way to read the count.
    private func withApplier(_ body: (BatchFolder, @Sendable () -> Int) async throws -> Void) async throws {
        let folded = Mutex(0)
        let log = ScriptedLog { batches in folded.withLock { $0 += batches.count } }
        let applier = BatchFolder(
            log: log, logger: Logger(label: "test"), pipeline: IngestPipeline(),
            metrics: NOOPMetricsHandler.instance, spacing: Self.spacing)
        try await body(applier, { folded.withLock { $0 } })
    }
}
