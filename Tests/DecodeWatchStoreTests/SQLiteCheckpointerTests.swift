import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchStoreSQLite
import Foundation
import Logging
import Metrics
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

@Suite("SQLite's write-ahead log is checkpointed in the background, off the commit path")
struct SQLiteCheckpointerTests {
    /// SQLite's automatic checkpoint keeps the log near 1,000 pages of 4 KiB.
    static let automaticCheckpointBytes = 1000 * 4096
    /// Commits of 100 new groups each (about 0.3 MB of log each): enough to take the log well past the
    /// automatic checkpoint.
    static let commits = 60

    static func batches() throws -> [ReceivedBatch] {
        try (0..<commits).map { commit in
            try StoreFixture.batch(
                paths: (0..<100).map { ["items", 0, "field\(commit)x\($0)"] }, install: "install-\(commit)")
        }
    }

    @Test("while it runs commits do not checkpoint: the log grows past SQLite's automatic checkpoint")
    func commitsLeaveTheLogAlone() async throws {
        let grown = try await Self.ingestWhileCheckpointing(every: .seconds(3600))
        #expect(grown.largestLog > 3 * Self.automaticCheckpointBytes)
        #expect(grown.keptBatches == Self.commits)
    }

    @Test("under continuous ingest the log stays within a few intervals of commits, and nothing is lost")
    func logStaysBounded() async throws {
        let grown = try await Self.ingestWhileCheckpointing(every: .seconds(3600))
        let bounded = try await Self.ingestWhileCheckpointing(every: .milliseconds(50))
        #expect(bounded.largestLog < grown.largestLog / 3)
        #expect(bounded.keptBatches == Self.commits)
    }

    @Test("once it stops, the automatic checkpoint is back: the log stays near 1,000 pages")
    func stopRestoresAutomaticCheckpoint() async throws {
        try await Self.withStore { store, path in
            try await Self.runCheckpointer(store: store, path: path, every: .seconds(3600)) {}
            var largest = 0
            for batch in try Self.batches() {
                #expect(try await store.ingest(batch.aggregate) == .stored)
                largest = max(largest, Self.logSize(path))
            }
            #expect(largest < 2 * Self.automaticCheckpointBytes)
        }
    }

    @Test(
        "the log of acknowledged batches is checkpointed too: appends leave its write-ahead log to it, it stays bounded"
    )
    func logOfAcknowledgedBatches() async throws {
        let alone = try await Self.acknowledgeWhileCheckpointing(every: .seconds(3600))
        let bounded = try await Self.acknowledgeWhileCheckpointing(every: .milliseconds(50))
        #expect(alone > 3 * Self.automaticCheckpointBytes)
        #expect(bounded < alone / 3)
    }

    /// Acknowledges 400 batches of about 40 KB each from the log while a checkpointer runs at `interval`, then
    /// checks that each is counted.
    /// - Returns: the largest size of the log's write-ahead log seen after an acknowledgment, in bytes.
    static func acknowledgeWhileCheckpointing(every interval: Duration) async throws -> Int {
        try await withStore { store, path in
            let sink = try store.loggedSink(pipeline: IngestPipeline(), metrics: NOOPMetricsHandler.instance)
            let padding = String(repeating: "x", count: 40_000)
            var largest = 0
            try await runCheckpointer(store: store, path: path, every: interval) { () async throws in
                for _ in 0..<400 {
                    #expect(try await sink.commit(try AcknowledgedBatch.make(snippet: padding)) == .stored)
                    largest = max(largest, logSize(path + "-pending"))
                }
            }
            let counted = try await store.fields(GroupCommitStoreTests.window).fields.map(\.count).reduce(0, +)
            #expect(counted == 400)
            return largest
        }
    }

    /// What one run of ``commits`` commits left behind.
    struct Growth {
        /// The log file's largest size seen after a commit, in bytes.
        var largestLog: Int
        /// The batches that are stored afterwards: sent again, they are duplicates.
        var keptBatches: Int
    }

    /// Commits every batch one by one while a checkpointer runs at `interval`.
    static func ingestWhileCheckpointing(every interval: Duration) async throws -> Growth {
        try await withStore { store, path in
            let batches = try batches()
            var largest = 0
            var stored = 0
            try await runCheckpointer(store: store, path: path, every: interval) { () async throws in
                for batch in batches where try await store.ingest(batch.aggregate) == .stored {
                    stored += 1
                    largest = max(largest, logSize(path))
                }
            }
            #expect(stored == batches.count)
            var kept = 0
            for batch in batches where try await store.ingest(batch.aggregate) == .duplicate { kept += 1 }
            return Growth(largestLog: largest, keptBatches: kept)
        }
    }

    /// Runs `body` while the checkpointer runs, then shuts it down gracefully, as `serve` does.
    static func runCheckpointer(
        store: SQLiteReportStore, path: String, every interval: Duration, _ body: () async throws -> Void
    ) async throws {
        let checkpointer = SQLiteCheckpointer(
            store: store, path: path, interval: interval, logger: Logger(label: "decodewatch.tests"))
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await checkpointer.run() }
                // The checkpointer turns the automatic checkpoint off as it starts.
                try await Task.sleep(for: .milliseconds(200))
                try await body()
                trigger.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
    }

    static func withStore<T>(_ body: (SQLiteReportStore, String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("s.sqlite").path
        return try await body(try SQLiteReportStore(path: path), path)
    }

    static func logSize(_ path: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
        return (attributes?[.size] as? Int) ?? 0
    }
}
