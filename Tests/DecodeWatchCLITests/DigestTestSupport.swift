import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchStoreSQLite
import DecodeWatchTestSupport
import Foundation

extension TestReceiver {
    /// A stand-in for a webhook or an API: the first answers have these statuses, each with the body `ok`; 200 `ok`
    /// after them.
    /// - Parameter delay: how long each answer takes, as a slow webhook's would.
    static func webhook(statuses: [Int] = [], delay: Duration = .zero) async throws -> TestReceiver {
        try await TestReceiver(replies: statuses.map { .text($0) }, otherwise: .text(200), delay: delay)
    }

    /// A stand-in that gives these answers first, then 200 `ok`.
    static func webhook(replies: [Reply]) async throws -> TestReceiver {
        try await TestReceiver(replies: replies, otherwise: .text(200))
    }

    /// The URL digests are delivered to.
    var webhookURL: URL { url.appendingPathComponent("hooks/digest") }
}

/// A fresh SQLite store on a temporary file, fed through the real validator and folding.
struct DigestFixture {
    let store: SQLiteReportStore
    let folder: URL
    var path: String { folder.appendingPathComponent("decodewatch.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("digest-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try SQLiteReportStore(path: folder.appendingPathComponent("decodewatch.sqlite").path)
    }

    func reopen() throws -> SQLiteReportStore { try SQLiteReportStore(path: path) }

    func send(
        _ count: Int, at time: String, path: [Any], endpoint: String = "GET /v2/posts", version: String = "5.2.0",
        install: String = "install-1", environment: String? = nil
    ) async throws {
        var body: [String: Any] = [
            "batch_id": UUID().uuidString, "app": ["id": "com.example.shop", "version": version], "install_id": install,
            "decodes": [["endpoint": endpoint, "count": count * 10]],
            "reports": [
                ["occurred_at": time, "endpoint": endpoint, "path": path, "kind": "keyNotFound", "count": count]
            ],
        ]
        body["environment"] = environment
        let batch = try BatchValidator().validate(
            JSONSerialization.data(withJSONObject: body), receivedAt: RFC3339.date(from: time)!.addingTimeInterval(30))
        _ = try await store.ingest(BatchAggregate(batch, redactor: Redactor()))
    }

    /// A fresh fixture holding ``seedDay()``'s day.
    static func seededDay() async throws -> DigestFixture {
        let fixture = try DigestFixture()
        try await fixture.seedDay()
        return fixture
    }

    /// A day with a new, a growing, a fading and a regressed group, on two endpoints.
    func seedDay() async throws {
        try await send(10, at: "2026-11-02T05:00:00Z", path: ["results", 0, "grow"])
        for hour in 0..<24 where hour % 3 == 0 {
            try await send(5 + hour, at: String(format: "2026-11-03T%02d:10:00Z", hour), path: ["results", 0, "grow"])
        }
        try await send(25, at: "2026-11-03T04:00:00Z", path: ["results", 0, "new"], version: "5.3.0")
        try await send(40, at: "2026-11-02T09:00:00Z", path: ["fade"], endpoint: "GET /v2/users/7")
        try await send(3, at: "2026-11-03T09:00:00Z", path: ["fade"], endpoint: "GET /v2/users/8")
        try await send(2, at: "2026-11-01T09:00:00Z", path: ["back"])
        let summary = try await store.fields(
            FieldsQuery(
                since: RFC3339.date(from: "2026-11-01T00:00:00Z")!, until: RFC3339.date(from: "2026-11-02T00:00:00Z")!))
        try await store.resolve(group: summary.fields[0].group, at: RFC3339.date(from: "2026-11-01T12:00:00Z")!)
        try await send(7, at: "2026-11-03T20:00:00Z", path: ["back"], version: "5.3.1")
    }

    static let period = DigestPeriod(
        since: RFC3339.date(from: "2026-11-03T00:00:00Z")!, until: RFC3339.date(from: "2026-11-04T00:00:00Z")!)
    static let now = RFC3339.date(from: "2026-11-04T00:07:00Z")!
}
