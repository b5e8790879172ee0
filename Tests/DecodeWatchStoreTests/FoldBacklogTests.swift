import DecodeWatchCore
import Foundation
import Logging
import Metrics
import Synchronization
import Testing

@testable import DecodeWatchStore

/// The bounds on what waits in memory between a batch's acknowledgment and its fold: past them, a new batch waits
/// for a fold to make room while folds succeed, and is refused at once (503) while they fail, so that a collector
/// whose database is locked neither grows without limit nor holds requests until the lock goes.
@Suite("The backlog of acknowledged batches is bounded")
struct FoldBacklogTests {
    /// A bound on what waits for a fold, and the sample of the batch that reaches it.
    struct FullBacklog: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let bounds: BatchFolder.Bounds
        let firstSnippet: String
    }

    static let fullBacklogs = [
        FullBacklog(testDescription: "waiting batches", bounds: .init(batches: 1), firstSnippet: "{}"),
        FullBacklog(
            testDescription: "waiting sample bytes", bounds: .init(sampleBytes: 1000),
            firstSnippet: String(repeating: "x", count: 1500)),
    ]

    @Test(
        "while folds fail, a batch past a bound on what waits is refused at once and not logged",
        arguments: fullBacklogs)
    func fullBacklogRefusesWhileFailing(backlog: FullBacklog) async throws {
        let database = LockedDatabase()
        defer { database.unlock() }
        let (log, applier) = Self.applier(bounds: backlog.bounds, fold: database.fold)
        let (first, second) = (
            try AcknowledgedBatch.make(snippet: backlog.firstSnippet), try AcknowledgedBatch.make(snippet: "{}")
        )
        #expect(try await applier.acknowledge([first]) == [.stored])
        // The first fold has failed once a read is refused.
        await #expect(throws: StoreError.self) { try await applier.settle() }
        // A batch with a small sample is refused too: what already waits fills the bound.
        let error = await #expect(throws: StoreError.self) {
            try await applier.acknowledge([second])
        }
        #expect(error?.code == .unavailable)
        #expect(log.count == 1)
    }

    @Test("while folds succeed, a batch past the bound waits until a fold has made room")
    func fullBacklogWaitsForAFold() async throws {
        do {
            let folded = Mutex(0)
            let (log, applier) = Self.applier(bounds: .init(batches: 1)) { batches in
                // A slow fold: the second batch must wait for it.
                try await Task.sleep(for: .milliseconds(300))
                folded.withLock { $0 += batches.count }
            }
            let (first, second) = (try AcknowledgedBatch.make(snippet: "{}"), try AcknowledgedBatch.make(snippet: "{}"))
            #expect(try await applier.acknowledge([first]) == [.stored])
            #expect(folded.withLock { $0 } == 0)
            #expect(try await applier.acknowledge([second]) == [.stored])
            #expect(folded.withLock { $0 } == 1)
            try await applier.settle()
            #expect(folded.withLock { $0 } == 2)
            #expect(log.count == 0)
        }
    }

    /// A database whose folds fail until the test unlocks it as it ends, so that the folder's retries end with the
    /// test.
    private final class LockedDatabase: Sendable {
        private let locked = Atomic(true)

        func fold(_: [BatchAggregate]) async throws {
            if locked.load(ordering: .relaxed) { throw StoreError(.unavailable, "database is locked") }
        }

        func unlock() { locked.store(false, ordering: .relaxed) }
    }

    private static func applier(
        bounds: BatchFolder.Bounds, fold: @escaping @Sendable ([BatchAggregate]) async throws -> Void
    ) -> (ScriptedLog, BatchFolder) {
        let log = ScriptedLog(fold: fold)
        return (
            log,
            BatchFolder(
                log: log, logger: Logger(label: "test"), pipeline: IngestPipeline(),
                metrics: NOOPMetricsHandler.instance, bounds: bounds)
        )
    }
}
