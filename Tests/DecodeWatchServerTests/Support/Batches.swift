import Foundation

/// Builders of realistic batches (docs/wire-format.md#batch).
enum Batches {
    static let now = Date()

    static func time(_ offset: TimeInterval = 0) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: now.addingTimeInterval(offset))
    }

    static func report(
        endpoint: String = "GET /v2/posts?page=2", path: [Any] = ["results", 1, "title"], kind: String = "keyNotFound",
        expected: String? = "String", count: Int? = nil, occurredAt: String? = nil, snippet: String? = nil
    ) -> [String: Any] {
        var report: [String: Any] = [
            "occurred_at": occurredAt ?? time(-60), "endpoint": endpoint, "type": "Post", "path": path, "kind": kind,
            "message": "No value associated with key title (\"title\").",
        ]
        if let expected { report["expected"] = expected }
        if let count { report["count"] = count }
        if let snippet { report["snippet"] = snippet }
        return report
    }

    /// A batch of one default ``report(endpoint:path:kind:expected:count:occurredAt:snippet:)``, as JSON bytes.
    static func oneReportJSON() throws -> Data {
        try JSONSerialization.data(withJSONObject: batch(reports: [report()]))
    }

    static func batch(
        id: String = UUID().uuidString, app: String = "com.example.shop", version: String? = "5.2.0",
        install: String? = "install-1", decodes: [[String: Any]]? = nil, environment: String? = nil,
        reports: [[String: Any]]
    ) -> [String: Any] {
        var appInfo: [String: Any] = ["id": app, "platform": "iOS"]
        if let version { appInfo["version"] = version }
        var batch: [String: Any] = [
            "batch_id": id, "sent_at": time(), "app": appInfo,
            "sdk": ["name": "decodewatch-swift", "version": "0.1.0"],
            "reports": reports,
        ]
        if let install { batch["install_id"] = install }
        if let decodes { batch["decodes"] = decodes }
        if let environment { batch["environment"] = environment }
        return batch
    }
}
