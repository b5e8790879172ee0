import DecodeWatchCore
import DecodeWatchServer
import DecodeWatchStore
import DecodeWatchStoreSQLite
import DecodeWatchTestSupport
import Foundation
import GRDB
import Metrics
import Testing

/// Batches acknowledged by a collector that stopped before folding them are counted by the next one, whatever
/// limits it runs with.
@Suite("Recovery of acknowledged batches")
struct RecoveryLimitsTests {
    @Test("a batch acknowledged under wider limits is folded after a restart with lower ones, not dropped")
    func lowerLimitsAfterRestart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decodewatch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("test.sqlite").path
        let body = Data(
            (#"{"batch_id":"b1","app":{"id":"com.example.shop"},"reports":["#
                + Array(
                    repeating:
                        #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":["x"],"kind":"other"}"#,
                    count: 5
                )
                .joined(separator: ",") + "]}").utf8)

        // The first collector acknowledges the batch into its log and stops before it can fold it: the database
        // is locked meanwhile.
        var lock: Configuration = Configuration()
        lock.allowsUnsafeTransactions = true
        let blocker = try DatabaseQueue(path: path, configuration: lock)
        var firstStore: SQLiteReportStore? = try SQLiteReportStore(path: path, busyTimeout: 0.1)
        try await blocker.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
        var first = try firstStore?.loggedSink(pipeline: IngestPipeline(), metrics: NOOPMetricsHandler.instance)
        let batch = ReceivedBatch(
            BatchAggregate(
                try BatchValidator().validate(body, receivedAt: date("2026-11-21T09:00:30Z")), redactor: Redactor()),
            source: BatchSource(body: body, encoding: .identity))
        #expect(try await first?.commit([batch]) == [.stored])
        (first, firstStore) = (nil, nil)
        // The first store closes in the background, announcing nothing: it is given the time to.
        try await Task.sleep(for: .milliseconds(300))

        // The next one allows 2 reports per batch.
        var configuration = ServerConfiguration(port: 0)
        configuration.limits.maxReports = 2
        let next = try SQLiteReportStore(path: path, busyTimeout: 0.1)
        // The application owns its sink, which folds the log: kept to the end.
        let application = buildApplication(configuration: configuration, store: next)
        defer { withExtendedLifetime(application) {} }
        // Its first fold meets the lock: the recovery under test is the retry after that failure.
        try await Task.sleep(for: .milliseconds(300))
        try await blocker.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        // A read waits for the log, or fails, until the next fold (after the retry delay) succeeds.
        let query = FieldsQuery(since: date("2026-11-21T00:00:00Z"), until: date("2026-11-22T00:00:00Z"))
        let counts = try await eventuallyFound(within: .seconds(5), every: .milliseconds(100)) {
            try? await next.fields(query).fields.map(\.count)
        }
        #expect(counts == [5])
    }
}

private func date(_ text: String) -> Date { RFC3339.date(from: text)! }
