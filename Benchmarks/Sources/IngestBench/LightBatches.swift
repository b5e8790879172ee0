import DecodeWatchCore
import Foundation

/// The light shape `IngestBench generate` wrote before the realistic workload: 4 fixed endpoints without ids, 4 short
/// paths, 30-byte snippets, at most 16 groups; a shape no app sends, kept to compare with older figures.
struct LightBatches: Sendable {
    private let installs: Int
    private let now = Date()

    /// A writer whose batches come from `installs` installs in turn.
    init(installs: Int = 500) {
        self.installs = max(1, installs)
    }

    /// The JSON bodies of batches `indexes`, each with a fresh random batch id.
    func bodies(_ indexes: Range<Int>) throws -> [Data] {
        let endpoints = [
            "GET /v2/posts?page=2", "GET /v2/users/42/posts", "GET /repos/octo/shop/issues", "GET /v2/feed",
        ]
        let paths: [[PathElement]] = [
            [.key("results"), .index(1), .key("title")], [.index(4), .key("author_association")],
            [.key("users"), .key("8231"), .key("e-mail")], [.key("items"), .index(0), .key("price"), .key("amount")],
        ]
        let kinds: [ReportKind] = [.keyNotFound, .typeMismatch, .unknownValue, .valueNotFound]
        let encoder = JSONEncoder()
        return try indexes.map { index in
            let reports = (0..<100).map { r in
                Report(
                    occurredAt: now.addingTimeInterval(-Double(r)), endpoint: endpoints[(index + r) % 4], type: "Post",
                    path: paths[r % 4], kind: kinds[(r / 4) % 4], expected: "String",
                    message: "No value associated with key title (\"title\").",
                    snippet: #"{"id":"pos_\#(r)","title":null}"#)
            }
            let batch = ReportBatch(
                batchID: UUID().uuidString, sentAt: now,
                app: AppInfo(id: "com.example.shop", version: "5.2.\(index % 3)"),
                installID: "install-\(index % installs)", decodes: [DecodeCount(endpoint: "GET /v2/posts", count: 120)],
                reports: reports)
            return try encoder.encode(batch)
        }
    }
}
