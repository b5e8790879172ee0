import DecodeWatchCore
import Foundation
import Testing

@Suite("GET /v1/fields")
struct SummaryTests {
    @Test("reports group by normalized endpoint and wildcard path; counts add report counts")
    func groupsAndCounts() async throws {
        try await TestCollector.run(reach: .router) { collector in
            _ = try await collector.ingest(
                Batches.batch(reports: [
                    Batches.report(endpoint: "GET /v2/posts?page=2", path: ["results", 1, "title"]),
                    Batches.report(
                        endpoint: "get https://api.example.com/v2/posts/", path: ["results", 7, "title"], count: 5),
                    Batches.report(
                        endpoint: "GET /v2/users/42/posts", path: ["users", "8231", "e-mail"], kind: "typeMismatch"),
                ]))
            let summary = try await collector.fields()
            #expect(summary.fields.count == 2)
            let posts = try #require(summary.fields.first)
            #expect(posts.endpoint == "GET /v2/posts")
            #expect(posts.path == "$.results[*].title")
            #expect(posts.count == 6)
            #expect(
                posts.group
                    == GroupKey(
                        app: "com.example.shop", endpoint: "GET /v2/posts", path: "$.results[*].title",
                        kind: .keyNotFound
                    ).id)
            let users = try #require(summary.fields.last)
            #expect(users.endpoint == "GET /v2/users/{id}/posts")
            #expect(users.path == "$.users[*]['e-mail']")
            #expect(users.kind == .typeMismatch)
        }
    }

    @Test("installs, versions, rate and expected are computed over the window")
    func numbers() async throws {
        try await TestCollector.run(reach: .router) { collector in
            let decodes: [[String: Any]] = [["endpoint": "GET /v2/posts?page=1", "count": 100]]
            _ = try await collector.ingest(
                Batches.batch(version: "5.2.0", install: "a", decodes: decodes, reports: [Batches.report(count: 3)]))
            _ = try await collector.ingest(
                Batches.batch(
                    version: "5.2.0", install: "b", decodes: decodes, reports: [Batches.report(expected: "Int")]))
            _ = try await collector.ingest(
                Batches.batch(version: "5.1.0", install: "a", decodes: decodes, reports: [Batches.report(count: 4)]))
            _ = try await collector.ingest(Batches.batch(version: nil, install: nil, reports: [Batches.report()]))
            let field = try #require(try await collector.fields().fields.first)
            #expect(field.count == 9)
            #expect(field.installs == 2)
            #expect(field.versions == ["5.2.0": 4, "5.1.0": 4, "unknown": 1])
            #expect(field.expected == "String")
            #expect(field.rate == 9.0 / 300.0)
            #expect(field.sample.message != nil)
        }
    }

    @Test("rate is null when no decodes were reported for the endpoint")
    func rateNull() async throws {
        try await TestCollector.run(reach: .router) { collector in
            _ = try await collector.ingest(
                Batches.batch(decodes: [["endpoint": "GET /v2/other", "count": 10]], reports: [Batches.report()]))
            // Raw JSON: the rate is written as null, not left out.
            let answer = try await collector.send("GET", "/v1/fields")
            let fields = try #require(answer.json["fields"] as? [[String: Any]])
            #expect(fields.first?["rate"] is NSNull)
        }
    }

    @Test("the window keeps old reports out by default and takes them in with since=7d")
    func windows() async throws {
        try await TestCollector.run(reach: .router) { collector in
            _ = try await collector.ingest(
                Batches.batch(reports: [
                    Batches.report(occurredAt: Batches.time(-3 * 86_400)),
                    Batches.report(path: ["other"], occurredAt: Batches.time(-60)),
                ]))
            #expect(try await collector.fields().fields.map(\.path) == ["$.other"])
            #expect(try await collector.fields("since=7d").fields.count == 2)
            #expect(try await collector.fields("since=7d&until=2d").fields.map(\.path) == ["$.results[*].title"])
            let start = RFC3339.string(from: Hour.start(of: Hour.index(of: Date()) - 100))
            #expect(try await collector.fields("since=\(start)").fields.count == 2)
        }
    }

    @Test("hour-aligned windows are exact: since inclusive, until exclusive")
    func exactHourWindows() async throws {
        try await TestCollector.run(reach: .router) { collector in
            _ = try await collector.ingest(
                Batches.batch(reports: [
                    Batches.report(path: ["a"], occurredAt: "2026-11-20T10:00:00Z"),
                    Batches.report(path: ["b"], occurredAt: "2026-11-20T10:59:59.999Z"),
                    Batches.report(path: ["c"], occurredAt: "2026-11-20T11:00:00Z"),
                ]))
            let summary = try await collector.fields("since=2026-11-20T10:00:00Z&until=2026-11-20T11:00:00Z")
            #expect(summary.fields.map(\.path).sorted() == ["$.a", "$.b"])
        }
    }

    @Test("since=15m counts the last 15 minutes only, and the default 24h window no more than 24 hours")
    func minuteExactDurations() async throws {
        try await TestCollector.run(reach: .router) { collector in
            _ = try await collector.ingest(
                Batches.batch(reports: [
                    Batches.report(path: ["recent"], count: 1, occurredAt: Batches.time(-5 * 60)),
                    Batches.report(path: ["recent"], count: 10, occurredAt: Batches.time(-20 * 60)),
                    Batches.report(path: ["day"], count: 3, occurredAt: Batches.time(-86_400 + 120)),
                    Batches.report(path: ["day"], count: 30, occurredAt: Batches.time(-86_400 - 120)),
                ]))
            let quarter = try await collector.fields("since=15m").fields
            #expect(quarter.map(\.path) == ["$.recent"])
            #expect(quarter.first?.count == 1)
            let day = try await collector.fields().fields
            #expect(day.first { $0.path == "$.day" }?.count == 3)
            #expect(day.first { $0.path == "$.recent" }?.count == 11)
        }
    }

    @Test("filters by app, endpoint (normalized) and kind; sorts by count then group; limits")
    func filtersAndOrder() async throws {
        try await TestCollector.run(reach: .router) { collector in
            _ = try await collector.ingest(
                Batches.batch(reports: [
                    Batches.report(endpoint: "GET /v2/posts", path: ["a"], count: 2),
                    Batches.report(endpoint: "GET /v2/posts", path: ["b"], count: 2),
                    Batches.report(endpoint: "GET /v2/posts/17", path: ["c"], kind: "typeMismatch", count: 9),
                ]))
            _ = try await collector.ingest(
                Batches.batch(app: "com.example.other", reports: [Batches.report(count: 50)]))
            let all = try await collector.fields().fields
            #expect(all.map(\.count) == [50, 9, 2, 2])
            #expect(all[2].group < all[3].group)
            #expect(try await collector.fields("app=com.example.shop").fields.count == 3)
            #expect(try await collector.fields("endpoint=GET%20/v2/posts/99").fields.map(\.path) == ["$.c"])
            #expect(try await collector.fields("kind=typeMismatch").fields.map(\.count) == [9])
            #expect(try await collector.fields("limit=1").fields.map(\.count) == [50])
        }
    }

    @Test("status is new inside the window, ongoing when first seen before it, resolved, then regressed")
    func lifecycle() async throws {
        try await TestCollector.run(reach: .router) { collector in
            _ = try await collector.ingest(
                Batches.batch(reports: [Batches.report(occurredAt: Batches.time(-2 * 86_400)), Batches.report()]))
            #expect(try await collector.fields().fields.first?.status == .ongoing)
            #expect(try await collector.fields("since=3d").fields.first?.status == .new)
            let group = try #require(try await collector.fields().fields.first?.group)
            let resolved = try await collector.send("POST", "/v1/groups/\(group)/resolve")
            #expect(resolved.status == 200)
            #expect(try await collector.fields().fields.first?.status == .resolved)
            let later = RFC3339.string(from: Date().addingTimeInterval(1))
            _ = try await collector.ingest(
                Batches.batch(version: "5.3.0", reports: [Batches.report(occurredAt: later)]))
            #expect(try await collector.fields().fields.first?.status == .regressed)
        }
    }

    @Test(
        "bad filters answer 400 naming the filter",
        arguments: ["kind=oops", "since=yesterday", "limit=0", "since=1d&until=2d", "endpoint=nomethod"])
    func badFilters(query: String) async throws {
        try await TestCollector.run(reach: .router) { collector in
            let answer = try await collector.send("GET", "/v1/fields?" + query)
            #expect(answer.status == 400)
            #expect(answer.errorCode == "invalid_query")
            let name = String(query.prefix { $0 != "=" })
            #expect(answer.errorMessage?.contains(name) == true, "\(answer.errorMessage ?? "")")
        }
    }
}

@Suite("Operations endpoints")
struct OperationsTests {
    @Test("healthz and readyz answer 200 while storage answers")
    func health() async throws {
        try await TestCollector.run(reach: .router) { collector in
            let health = try await collector.send("GET", "/healthz")
            let ready = try await collector.send("GET", "/readyz")
            #expect(health.status == 200)
            #expect(ready.status == 200)
        }
    }

    @Test("readyz answers 503 within a second while storage cannot commit, and 200 once it can again")
    func readyWithinASecond() async throws {
        // The busy timeout makes a write wait 10 s for the lock another process holds on the log of acknowledged
        // batches, where readiness commits: the probe must not.
        try await TestCollector.run(busyTimeout: 10, reach: .router) { collector in
            let blocker = try lockDatabase(collector.databasePath + "-pending")
            let started = ContinuousClock.now
            let blocked = try await collector.send("GET", "/readyz")
            #expect(ContinuousClock.now - started < .seconds(1))
            #expect(blocked.status == 503)
            #expect(blocked.errorCode == "storage_unavailable")
            try await blocker.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
            #expect(try await collector.send("GET", "/readyz").status == 200)
        }
    }

    @Test("metrics expose ingest counters in Prometheus text")
    func metrics() async throws {
        try await TestCollector.run(reach: .router) { collector in
            _ = try await collector.ingest(Batches.batch(reports: [Batches.report(), Batches.report(kind: "bad")]))
            let text = try await collector.send("GET", "/metrics").text
            #expect(text.contains(#"decodewatch_ingest_batches_total{outcome="stored"} 1"#))
            #expect(text.contains(#"decodewatch_ingest_reports_total{outcome="rejected"} 1"#))
        }
    }

    @Test(
        "an unknown route, and resolving an unknown group, answer 404 with the JSON error body",
        arguments: [("GET", "/v1/nothing"), ("POST", "/v1/groups/0000000000000000/resolve")])
    func notFound(method: String, path: String) async throws {
        try await TestCollector.run(reach: .router) { collector in
            let answer = try await collector.send(method, path)
            #expect(answer.status == 404)
            #expect(answer.errorCode == "not_found")
        }
    }
}
