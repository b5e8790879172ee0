import DecodeWatchCore
import DecodeWatchServer
import Foundation
import GRDB
import Testing

/// The top breaking fields at `/metrics` (docs/api.md#field-metrics): counts and rates per field, a bounded number of
/// series, and a scrape that survives the store.
@Suite struct FieldMetricsTests {
    /// A collector that refreshes its field metrics every 20 ms, so that a test waits for a refresh, not 30 s.
    static func configuration(limit: Int = 50) -> ServerConfiguration {
        ServerConfiguration(fieldMetricsLimit: limit, fieldMetricsInterval: .milliseconds(20))
    }

    static let reports = "decodewatch_field_reports"
    static let rate = "decodewatch_field_rate"

    @Test("the top fields appear at /metrics labelled like /v1/fields, with their reports and rates in the last hour")
    func countsAndRates() async throws {
        try await TestCollector.run(Self.configuration()) { collector in
            let batch = Batches.batch(
                decodes: [["endpoint": "GET /v2/posts", "count": 10]],
                reports: [
                    Batches.report(path: ["results", 0, "title"], count: 3),
                    Batches.report(path: ["results", 1, "author"], count: 1),
                    Batches.report(endpoint: "GET /v2/users/42", path: ["name"], kind: "typeMismatch", count: 2),
                ])
            #expect(try await collector.ingest(batch).status == 202)
            let fields = try await collector.fields("since=1h").fields
            #expect(fields.count == 3)
            let metrics = try await collector.metrics { $0.named(Self.reports).count == 3 }
            for field in fields {
                let labels = [
                    "app": field.app, "endpoint": field.endpoint, "path": field.path, "kind": field.kind.rawValue,
                    "group": field.group,
                ]
                #expect(metrics.named(Self.reports).contains { $0.labels == labels }, "\(labels)")
                #expect(metrics.value(Self.reports, labels) == Double(field.count))
                #expect(metrics.value(Self.rate, labels) == field.rate)
            }
            let title = ["path": "$.results[*].title", "endpoint": "GET /v2/posts", "app": "com.example.shop"]
            #expect(metrics.value(Self.reports, title) == 3)
            #expect(metrics.value(Self.rate, title) == 0.3)
            #expect(metrics.value(Self.rate, ["path": "$.results[*].author"]) == 0.1)
            // No decodes of GET /v2/users/{id}: its field has a count and no rate, neither 0 nor NaN.
            #expect(metrics.value(Self.reports, ["path": "$.name", "kind": "typeMismatch"]) == 2)
            #expect(metrics.value(Self.rate, ["path": "$.name"]) == nil)
            #expect(metrics.named(Self.rate).count == 2)
        }
    }

    @Test("with a limit of 2 only the two most-reported fields have series, and a field that drops out loses both")
    func limitRemovesFieldsThatLeave() async throws {
        try await TestCollector.run(Self.configuration(limit: 2)) { collector in
            func batch(_ counts: [String: Int]) -> [String: Any] {
                Batches.batch(
                    decodes: [["endpoint": "GET /v2/posts", "count": 100]],
                    reports: counts.map { Batches.report(path: [$0.key], count: $0.value) })
            }
            func paths(_ metrics: MetricsText, _ name: String) -> Set<String> {
                Set(metrics.named(name).compactMap { $0.labels["path"] })
            }
            #expect(try await collector.ingest(batch(["a": 3, "b": 2, "c": 1])).status == 202)
            var metrics = try await collector.metrics { paths($0, Self.reports) == ["$.a", "$.b"] }
            #expect(paths(metrics, Self.reports) == ["$.a", "$.b"])
            #expect(paths(metrics, Self.rate) == ["$.a", "$.b"])

            #expect(try await collector.ingest(batch(["c": 4])).status == 202)
            metrics = try await collector.metrics { paths($0, Self.reports).contains("$.c") }
            #expect(paths(metrics, Self.reports) == ["$.c", "$.a"])
            #expect(paths(metrics, Self.rate) == ["$.c", "$.a"])
            #expect(metrics.value(Self.reports, ["path": "$.c"]) == 5)
            #expect(metrics.value(Self.rate, ["path": "$.c"]) == 5.0 / 200)
        }
    }

    @Test("a path with a quote, a backslash and a line feed is escaped at /metrics and reads back as /v1/fields has it")
    func labelValuesAreEscaped() async throws {
        try await TestCollector.run(Self.configuration()) { collector in
            let key = "say \"hi\" \\ then\nbye"
            #expect(try await collector.ingest(Batches.batch(reports: [Batches.report(path: [key])])).status == 202)
            let path = try #require(try await collector.fields("since=1h").fields.first?.path)
            #expect(path.contains("\"") && path.contains("\\") && path.contains("\n"))
            let metrics = try await collector.metrics { !$0.named(Self.reports).isEmpty }
            #expect(metrics.named(Self.reports).map { $0.labels["path"] } == [path])
        }
    }

    @Test("while the store cannot be read /metrics answers 200 with the last values and counts the failed refreshes")
    func storeFailureKeepsLastValues() async throws {
        var configuration = Self.configuration()
        configuration.fieldMetricsInterval = .milliseconds(100)
        try await TestCollector.run(configuration, busyTimeout: 0.2) { collector in
            let failed = "decodewatch_field_metrics_refreshes_total"
            #expect(try await collector.ingest(Batches.batch(reports: [Batches.report(count: 2)])).status == 202)
            _ = try await collector.metrics { $0.value(Self.reports) == 2 }

            let blocker = try lockDatabase(collector.databasePath)
            // Acknowledged from the log but not folded: reading the summary now fails.
            #expect(try await collector.ingest(Batches.batch(reports: [Batches.report(count: 5)])).status == 202)
            let during = try await collector.metrics { $0.value(failed, ["outcome": "failed"]) ?? 0 >= 2 }
            #expect(during.value(failed, ["outcome": "failed"]) ?? 0 >= 2)
            #expect(during.value(Self.reports) == 2)

            try await blocker.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
            let after = try await collector.metrics { $0.value(Self.reports) == 7 }
            #expect(after.value(Self.reports) == 7)
        }
    }

    @Test("a limit of 0 exposes no field series")
    func limitZeroExposesNone() async throws {
        try await TestCollector.run(Self.configuration(limit: 0)) { collector in
            #expect(try await collector.ingest(Batches.batch(reports: [Batches.report()])).status == 202)
            // No event says a refresh did not happen: the time a refresh would take must pass.
            try await Task.sleep(for: .milliseconds(100))
            let metrics = try await collector.metrics()
            #expect(metrics.named(Self.reports).isEmpty)
            #expect(metrics.named("decodewatch_field_metrics_refreshes_total").isEmpty)
        }
    }
}
