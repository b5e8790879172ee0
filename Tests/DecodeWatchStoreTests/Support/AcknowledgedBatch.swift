import DecodeWatchCore
import Foundation

/// Batches as the collector hands them to a store that logs them before folding, and a folder for the files:
/// shared by the tests of the log of acknowledged batches.
enum AcknowledgedBatch {
    /// A batch of one report with its body.
    static func make(count: Int = 1, path: String = "title", snippet: String? = nil) throws -> ReceivedBatch {
        var report: [String: Any] = [
            "occurred_at": "2026-11-21T09:00:00Z", "endpoint": "GET /v2/posts", "path": ["results", 0, path],
            "kind": "keyNotFound", "count": count,
        ]
        report["snippet"] = snippet
        let body = try JSONSerialization.data(withJSONObject: [
            "batch_id": UUID().uuidString, "app": ["id": "com.example.shop"], "reports": [report],
        ])
        let source = BatchSource(body: body, encoding: .identity)
        return ReceivedBatch(
            try IngestPipeline().rebuild(source, receivedAt: date("2026-11-21T09:00:30Z")), source: source)
    }

    /// Runs `body` with the path of a database file in a new folder, removed afterwards.
    static func withFolder(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decodewatch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.appendingPathComponent("test.sqlite").path)
    }
}
