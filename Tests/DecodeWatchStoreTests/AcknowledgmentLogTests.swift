import DecodeWatchCore
import DecodeWatchStore
import Foundation
import GRDB
import Testing

/// SQLite's log of acknowledged batches: a batch is acknowledged once its body is in the log, and folded into the
/// rollups in the background; reads wait for it, duplicates are recognised wherever it is, and what a closed
/// store left in the log is folded by the next one.
@Suite("SQLite: batches acknowledged from a log")
struct AcknowledgmentLogTests {
    @Test("an acknowledged batch is in the next read, and sent again it is a duplicate, in the log or folded")
    func readsSeeAcknowledgedBatches() async throws {
        try await withFolder { path in
            let store = try Self.open(path)
            let batch = try Self.batch(count: 3)
            #expect(try await store.ingest([batch, batch]) == [.stored, .duplicate])
            #expect(try await store.ingest(batch) == .duplicate)
            #expect(try await store.fields(Self.window).fields.map(\.count) == [3])
            #expect(try await store.ingest(batch) == .duplicate)
            #expect(try await store.fields(Self.window).fields.map(\.count) == [3])
            #expect(try Self.logged(path) == 0)
        }
    }

    @Test("batches a closed store left in the log are folded by the next store on the file, each once")
    func leftoversAreFoldedOnce() async throws {
        try await withFolder { path in
            let first = try Self.batch(count: 2, path: "title")
            let second = try Self.batch(count: 5, path: "body")
            // The database is locked, so the first store can only acknowledge: its writes keep failing.
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let blocker = try DatabaseQueue(path: path, configuration: configuration)
            do {
                let closing = try Self.open(path)
                try await blocker.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
                #expect(try await closing.ingest([first, second]) == [.stored, .stored])
            }
            #expect(try Self.logged(path) == 2)
            try await blocker.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }

            let next = try Self.open(path)
            let fields = try await next.fields(Self.window).fields
            #expect(
                Dictionary(uniqueKeysWithValues: fields.map { ($0.path, $0.count) }) == [
                    "$.results[*].title": 2, "$.results[*].body": 5,
                ])
            #expect(try Self.logged(path) == 0)
            #expect(try await next.ingest(first) == .duplicate)
        }
    }

    static let window = FieldsQuery(since: date("2026-11-21T00:00:00Z"), until: date("2026-11-22T00:00:00Z"))

    /// A store that acknowledges from its log, with a short lock wait.
    private static func open(_ path: String) throws -> SQLiteReportStore {
        let store = try SQLiteReportStore(path: path, busyTimeout: 0.1)
        try store.acknowledgeBeforeWriting(rebuild: rebuild)
        return store
    }

    /// Decodes a body as the collector does (identity bodies only here).
    @Sendable private static func rebuild(_ source: BatchSource, _ receivedAt: Date) throws -> BatchAggregate {
        BatchAggregate(try BatchValidator().validate(source.body, receivedAt: receivedAt), redactor: Redactor())
    }

    /// A batch of one report with its body, as the collector hands it to the store.
    private static func batch(count: Int, path: String = "title") throws -> BatchAggregate {
        let body = try JSONSerialization.data(withJSONObject: [
            "batch_id": UUID().uuidString, "app": ["id": "com.example.shop"],
            "reports": [
                [
                    "occurred_at": "2026-11-21T09:00:00Z", "endpoint": "GET /v2/posts", "path": ["results", 0, path],
                    "kind": "keyNotFound", "count": count,
                ]
            ],
        ])
        var batch = try rebuild(BatchSource(body: body, encoding: .identity), date("2026-11-21T09:00:30Z"))
        batch.source = BatchSource(body: body, encoding: .identity)
        return batch
    }

    /// How many batches the log of a database holds.
    private static func logged(_ path: String) throws -> Int {
        try DatabaseQueue(path: path + "-pending").read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM pending") ?? 0
        }
    }

    private func withFolder(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decodewatch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.appendingPathComponent("test.sqlite").path)
    }
}
