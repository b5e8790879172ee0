import DecodeWatchCore
import Foundation

/// Batches as the collector hands them to a store that logs them before folding, and a folder for the files:
/// shared by the tests of the log of acknowledged batches.
enum AcknowledgedBatch {
    /// Decodes a body as the collector does (identity bodies only here).
    @Sendable static func rebuild(_ source: BatchSource, _ receivedAt: Date) throws -> BatchAggregate {
        BatchAggregate(try BatchValidator().validate(source.body, receivedAt: receivedAt), redactor: Redactor())
    }

    /// A batch of one report with its body.
    static func make(count: Int = 1, path: String = "title", snippet: String? = nil) throws -> BatchAggregate {
        var report: [String: Any] = [
            "occurred_at": "2026-11-21T09:00:00Z", "endpoint": "GET /v2/posts", "path": ["results", 0, path],
            "kind": "keyNotFound", "count": count,
        ]
        report["snippet"] = snippet
        let body = try JSONSerialization.data(withJSONObject: [
            "batch_id": UUID().uuidString, "app": ["id": "com.example.shop"], "reports": [report],
        ])
        var batch = try rebuild(BatchSource(body: body, encoding: .identity), date("2026-11-21T09:00:30Z"))
        batch.source = BatchSource(body: body, encoding: .identity)
        return batch
    }

    /// Runs `body` with the path of a database file in a new folder, removed afterwards.
    static func withFolder(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decodewatch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.appendingPathComponent("test.sqlite").path)
    }
}
