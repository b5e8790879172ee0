import DecodeWatchCore
import Foundation
import Logging
import Synchronization
import Testing

@testable import DecodeWatchStore

/// The bounds on what waits in memory between a batch's acknowledgment and its fold: past them, a new batch waits
/// for a fold to make room while folds succeed, and is refused at once (503) while they fail, so that a collector
/// whose database is locked neither grows without limit nor holds requests until the lock goes.
@Suite("SQLite: the backlog of acknowledged batches is bounded")
struct FoldBacklogTests {
    @Test("while folds fail, a batch past the bound on waiting batches is refused at once and not logged")
    func fullBacklogOfBatchesRefusesWhileFailing() async throws {
        try await withLog { log in
            let applier = Self.applier(log, bounds: .init(batches: 1), write: { _ in throw Self.locked })
            let (first, second) = (try LoggedBatch.make(snippet: "{}"), try LoggedBatch.make(snippet: "{}"))
            #expect(try await applier.acknowledge([first], check: Self.nothingStored) == [.stored])
            // The first fold has failed once a read is refused.
            await #expect(throws: StoreError.self) { try await applier.settle() }
            let error = await #expect(throws: StoreError.self) {
                try await applier.acknowledge([second], check: Self.nothingStored)
            }
            #expect(error?.code == .unavailable)
            #expect(try await log.entries().count == 1)
        }
    }

    @Test("while folds fail, a batch past the bound on waiting sample bytes is refused at once and not logged")
    func fullBacklogOfSamplesRefusesWhileFailing() async throws {
        try await withLog { log in
            let applier = Self.applier(log, bounds: .init(sampleBytes: 1000), write: { _ in throw Self.locked })
            let (large, small) = (
                try LoggedBatch.make(snippet: String(repeating: "x", count: 1500)), try LoggedBatch.make(snippet: "{}")
            )
            #expect(try await applier.acknowledge([large], check: Self.nothingStored) == [.stored])
            await #expect(throws: StoreError.self) { try await applier.settle() }
            // A batch with a small sample is refused too: the samples already waiting fill the bound.
            await #expect(throws: StoreError.self) {
                try await applier.acknowledge([small], check: Self.nothingStored)
            }
            #expect(try await log.entries().count == 1)
        }
    }

    @Test("while folds succeed, a batch past the bound waits until a fold has made room")
    func fullBacklogWaitsForAFold() async throws {
        try await withLog { log in
            let folded = Mutex(0)
            let applier = Self.applier(log, bounds: .init(batches: 1)) { batches in
                try await Task.sleep(for: .milliseconds(300))
                folded.withLock { $0 += batches.count }
                return true
            }
            let (first, second) = (try LoggedBatch.make(snippet: "{}"), try LoggedBatch.make(snippet: "{}"))
            #expect(try await applier.acknowledge([first], check: Self.nothingStored) == [.stored])
            #expect(folded.withLock { $0 } == 0)
            #expect(try await applier.acknowledge([second], check: Self.nothingStored) == [.stored])
            #expect(folded.withLock { $0 } == 1)
            try await applier.settle()
            #expect(folded.withLock { $0 } == 2)
            #expect(try await log.entries().isEmpty)
        }
    }

    private static let locked = StoreError(.unavailable, "database is locked")
    private static let nothingStored: @Sendable ([BatchIdentity]) throws -> Set<BatchIdentity> = { _ in [] }

    private static func applier(
        _ log: PendingLog, bounds: DeferredApplier.Bounds,
        write: @escaping @Sendable ([BatchAggregate]) async throws -> Bool
    ) -> DeferredApplier {
        DeferredApplier(
            log: log, logger: Logger(label: "test"), write: write,
            rebuild: LoggedBatch.rebuild, bounds: bounds)
    }

    private func withLog(_ body: (PendingLog) async throws -> Void) async throws {
        try await LoggedBatch.withFolder { path in try await body(try PendingLog(database: path, busyTimeout: 0.1)) }
    }
}
