import DecodeWatchTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The collector while its PostgreSQL goes away and comes back (docs/wire-format.md#durability: 503, nothing lost).
@Suite("PostgreSQL outage")
struct DatabaseOutageTests {
    @Test("while the database refuses connections, ingest and /readyz answer 503 within seconds; then it recovers")
    func outageAndRecovery() async throws {
        let admin = try Storage.serverURL()
        let name = "dw_outage_" + UUID().uuidString.prefix(8).lowercased()
        try psql(admin, "CREATE DATABASE \(name)")
        defer { try? psql(admin, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        var components = URLComponents(string: admin)!
        components.path = "/" + name
        let server = try CLI.start(["serve", "--port", "0", "--database-url", components.string!])
        let port = try await server.port()
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        func ingest(_ id: String) async throws -> HTTPURLResponse {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/reports")!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(
                #"{"batch_id": "\#(id)", "app": {"id": "com.example.shop"}, "reports": [{"occurred_at": "2026-11-21T10:00:00Z", "endpoint": "GET /v2/posts", "path": ["title"], "kind": "keyNotFound"}]}"#
                    .utf8)
            return try await session.data(for: request).1 as! HTTPURLResponse
        }
        func ready() async throws -> Int {
            let (_, response) = try await session.data(from: URL(string: "http://127.0.0.1:\(port)/readyz")!)
            return (response as! HTTPURLResponse).statusCode
        }
        #expect(try await ingest("before").statusCode == 202)

        try psql(admin, "ALTER DATABASE \(name) ALLOW_CONNECTIONS false")
        try psql(admin, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'")
        let started = Date()
        let refused = try await ingest("during")
        #expect(refused.statusCode == 503)
        #expect(refused.value(forHTTPHeaderField: "Retry-After") != nil)
        #expect(try await ready() == 503)
        #expect(Date().timeIntervalSince(started) < 10)

        try psql(admin, "ALTER DATABASE \(name) ALLOW_CONNECTIONS true")
        var status = 0
        try await eventually(within: .seconds(30), every: .milliseconds(500)) {
            status = try await ingest("after").statusCode
            return status == 202
        }
        #expect(status == 202)
        #expect(try await ready() == 200)
        let fields = try CLI.run([
            "fields", "--database-url", components.string!, "--format", "json", "--since", "2026-11-21T00:00:00Z",
            "--until", "2026-11-22T00:00:00Z",
        ])
        // The batch refused with 503 was not stored; the two acknowledged ones were.
        #expect(fields.output.contains("\"count\" : 2"))
        #expect(try await server.terminate() == 0)
    }

    private func psql(_ url: String, _ sql: String) throws {
        let result = try Subprocess.run(tool: "psql", ["--no-psqlrc", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql])
        guard result.status == 0 else { throw StorageSetupError() }
    }
}
