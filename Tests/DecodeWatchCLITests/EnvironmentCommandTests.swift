import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

@testable import DecodeWatchServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Environments end to end (docs/wire-format.md#environments): compressed batches of production, staging and no
/// environment into `decodewatch serve`, then the `environment` filter of the API and the CLI, on both stores.
@Suite("Environments end to end")
struct EnvironmentCommandTests {
    static let app = "com.example.shop"

    /// A batch of version 5.3.0 in `environment` (none when `nil`): `decodes` decodes of `GET /v2/posts/{id}` and
    /// `failures` reports of one field, an hour ago.
    static func batch(environment: Any?, decodes: Int, failures: Int) throws -> Data {
        var body: [String: Any] = [
            "batch_id": UUID().uuidString, "app": ["id": app, "version": "5.3.0"],
            "decodes": [["endpoint": "GET /v2/posts/7", "count": decodes]],
            "reports": [
                [
                    "occurred_at": RFC3339Text.now(minus: 3600), "endpoint": "GET /v2/posts/42",
                    "path": ["results", 0, "title"], "kind": "keyNotFound", "count": failures,
                ]
            ],
        ]
        body["environment"] = environment
        return try JSONSerialization.data(withJSONObject: body)
    }

    @Test(
        "each environment's reports and rate through the API and the CLI, every environment without a filter",
        arguments: Storage.allCases)
    func filter(storage: Storage) async throws {
        try await CLI.withCollector(on: storage) { db, port, session in
            let collector = TestHTTPClient(port: port, session: session)
            // Production twice (once named, once by default), staging once, and a name that breaks the rule,
            // which counts as production with a warning.
            let sent = [
                try await collector.post(
                    batch: Self.batch(environment: "production", decodes: 1000, failures: 5), encoding: "deflate"),
                try await collector.post(
                    batch: Self.batch(environment: nil, decodes: 1000, failures: 5), encoding: "deflate"),
                try await collector.post(
                    batch: Self.batch(environment: "staging", decodes: 100, failures: 20), encoding: "deflate"),
                try await collector.post(
                    batch: Self.batch(environment: "App Store", decodes: 0, failures: 2), encoding: "deflate"),
            ]
            #expect(sent.map(\.status) == [202, 202, 202, 202])
            #expect(
                try sent[3].decoded(IngestAnswer.self).warnings
                    == [
                        "environment: 'App Store' is not 1–64 characters of A–Z, a–z, 0–9, '.', '_' and '-'; counted as production"
                    ])

            func entry(_ query: String) async throws -> FieldSummary? {
                let answer = try await collector.get("/v1/fields?app=\(Self.app)\(query)")
                #expect(answer.status == 200)
                return try answer.decoded(FieldsSummary.self).fields.first
            }
            let all = try #require(try await entry(""))
            #expect(all.count == 32)
            // Rates are written rounded to 15 significant digits.
            #expect(abs((all.rate ?? 0) - 32.0 / 2100) < 1e-12)
            let staging = try #require(try await entry("&environment=staging"))
            #expect(staging.count == 20)
            #expect(staging.rate == 0.2)
            #expect(staging.group == all.group)
            let production = try #require(try await entry("&environment=production"))
            #expect(production.count == 12)
            #expect(production.rate == 0.006)
            #expect(try await entry("&environment=debug") == nil)

            let refused = try await collector.get("/v1/fields?environment=App%20Store")
            #expect(refused.status == 400)
            #expect(refused.errorCode == "invalid_query")
            #expect(refused.errorMessage?.hasPrefix("environment 'App Store' must be 1–64 characters") == true)

            // The release check of one environment: staging's 20 % fails, production's 0.6 % passes.
            let check = "/v1/check?app=\(Self.app)&version=5.3.0&min_decodes=100"
            #expect(
                try await collector.get(check + "&environment=staging").decoded(ReleaseVerdict.self).verdict == .fail)
            #expect(
                try await collector.get(check + "&environment=production").decoded(ReleaseVerdict.self).verdict == .pass
            )

            // The CLI, against the database and through the API: the same environment's numbers.
            let fields = ["fields", "--app", Self.app, "--environment", "staging", "--format", "csv"]
            let local = try CLI.run(fields + db)
            #expect(local.status == 0)
            #expect(local.output.contains(",20,0,0.2,"), "\(local.output)")
            let remote = try CLI.run(fields + ["--url", "http://127.0.0.1:\(port)"])
            #expect(remote.output == local.output)
            let checked = ["check", "--app", Self.app, "--version", "5.3.0", "--min-decodes", "100", "--environment"]
            #expect(try CLI.run(checked + ["staging"] + db).status == 1)
            #expect(try CLI.run(checked + ["production"] + db).status == 0)
            let bad = try CLI.run(checked + ["no such"] + db)
            #expect(bad.status == 64)
            #expect(bad.error.contains("--environment 'no such' must be 1–64 characters"), "\(bad.error)")
        }
    }
}
