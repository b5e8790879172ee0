import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Several `decodewatch serve` processes on one PostgreSQL, as behind a load balancer (docs/ARCHITECTURE.md#storage).
@Suite("Replicas on one PostgreSQL")
struct ReplicaTests {
    @Test("three replicas under overlapping concurrent load, double deliveries and re-sends keep every number exact")
    func replicasStayExact() async throws {
        try await CLI.withDatabase(on: .postgres) { _, database in
            var replicas: [CLI.RunningServer] = []
            for _ in 0..<3 {
                replicas.append(try CLI.start(["serve", "--port", "0"] + database))
            }
            var bound: [Int] = []
            for replica in replicas { bound.append(try await replica.port()) }
            let ports = bound
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }

            // 60 distinct batches over 3 paths and 2 endpoints, 7 installs, counts 1–5.
            let batches = (0..<60).map { index in ReplicaBatch(index: index) }
            try await withThrowingTaskGroup(of: Int.self) { group in
                for batch in batches {
                    group.addTask { try await batch.post(to: ports[batch.index % 3], session: session) }
                    // Every fifth batch is delivered to a second replica at the same time.
                    if batch.index % 5 == 0 {
                        group.addTask { try await batch.post(to: ports[(batch.index + 1) % 3], session: session) }
                    }
                }
                for try await status in group { #expect(status == 202) }
            }
            // Re-sends after the acknowledgement (an app that lost the answer).
            for batch in batches.prefix(10) {
                #expect(try await batch.post(to: ports[2], session: session) == 202)
            }

            var summaries: [FieldsSummary] = []
            for port in ports {
                let url = URL(
                    string: "http://127.0.0.1:\(port)/v1/fields?since=2026-11-21T00:00:00Z&until=2026-11-22T00:00:00Z")!
                let (data, _) = try await session.data(from: url)
                summaries.append(try JSONDecoder().decode(FieldsSummary.self, from: data))
            }
            #expect(summaries[0] == summaries[1] && summaries[1] == summaries[2])
            let expected = ReplicaBatch.expected(batches)
            let fields = summaries[0].fields
            #expect(fields.count == expected.count)
            for field in fields {
                let want = try #require(expected[field.path + " " + field.endpoint])
                #expect(field.count == want.count, "\(field.path)")
                #expect(field.installs == want.installs.count, "\(field.path)")
                #expect(field.rate == Double(want.count) / Double(want.decodes), "\(field.path)")
            }
            for replica in replicas { #expect(try await replica.terminate() == 0) }
        }
    }
}

/// One batch of the replica test, with what it should add.
struct ReplicaBatch: Sendable {
    let index: Int
    /// The UTC day (YYYY-MM-DD) the batch's reports occurred on.
    var day = "2026-11-21"
    var endpoint: String { index % 2 == 0 ? "GET /v2/posts" : "GET /v2/users/{id}" }
    var path: [String] { ["results", ["title", "body", "author"][index % 3]] }
    var install: String { "install-\(index % 7)" }
    var count: Int { 1 + index % 5 }
    var decodes: Int { 10 + index % 3 }

    var body: Data {
        let batch: [String: Any] = [
            "batch_id": "replica-\(index)", "app": ["id": "com.example.shop", "version": "5.2.0"],
            "install_id": install, "sent_at": "\(day)T10:30:00Z",
            "decodes": [["endpoint": endpoint, "count": decodes]],
            "reports": [
                [
                    "occurred_at": "\(day)T10:\(10 + index % 40):00Z", "endpoint": endpoint, "path": path,
                    "kind": "keyNotFound", "count": count,
                ]
            ],
        ]
        return try! JSONSerialization.data(withJSONObject: batch)
    }

    /// Posts the batch uncompressed.
    func post(to collector: TestHTTPClient) async throws -> HTTPAnswer {
        try await collector.post(batch: body)
    }

    /// Posts the batch to a collector on this port; returns the status.
    func post(to port: Int, session: URLSession) async throws -> Int {
        try await post(to: TestHTTPClient(port: port, session: session)).status
    }

    /// What one group should show: each distinct batch counted once.
    struct Expected {
        var count = 0
        var installs: Set<String> = []
        var decodes = 0
    }

    /// The expected numbers per `path endpoint`.
    static func expected(_ batches: [ReplicaBatch]) -> [String: Expected] {
        var decodes: [String: Int] = [:]
        for batch in batches { decodes[batch.endpoint, default: 0] += batch.decodes }
        var result: [String: Expected] = [:]
        for batch in batches {
            let key = "$." + batch.path.joined(separator: ".") + " " + batch.endpoint
            result[key, default: Expected()].count += batch.count
            result[key, default: Expected()].installs.insert(batch.install)
            result[key, default: Expected()].decodes = decodes[batch.endpoint] ?? 0
        }
        return result
    }
}
