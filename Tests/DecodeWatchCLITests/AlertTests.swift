import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

/// Alerts end to end: the real `decodewatch serve`, rules added with the CLI, reports over HTTP and a real
/// webhook receiver on 127.0.0.1.
@Suite("Alerts within a minute")
struct AlertTests {
    @Test(
        "a new group posts one Slack alert within 60 s at the default interval, naming the field, escaped",
        arguments: Storage.allCases)
    func newGroupAlertsWithinAMinute(storage: Storage) async throws {
        let harness = try await AlertHarness(storage: storage)
        try harness.addRule(["--name", "posts <break>", "--when", "new", "--over", "10m"])
        try await harness.start(flags: ["--public-url", "https://dw.example.com"])
        let answer = try await harness.post(paths: ["title"], count: 3, version: "5.2.0<!channel>")
        #expect(answer.status == 202)
        let seconds = try await harness.waitForRequests(1, timeout: 60)
        #expect(seconds < 60)
        let text = try harness.text(0)
        for part in [
            "`GET /v2/posts`", "`$.results[*].title`", "keyNotFound", "(expected String)", "is new", "3 failures",
            "app com.example.shop", "versions 5.2.0&lt;!channel&gt; (3)", "first seen 20",
            "<https://dw.example.com/groups/", "\u{201C}posts &lt;break&gt;\u{201D}",
        ] {
            #expect(text.contains(part), "\(part) in \(text)")
        }
        #expect(!text.contains("<!channel>"))
        #expect(try await harness.counter(#"decodewatch_alert_deliveries_total{outcome="delivered"}"#) == 1)
        try await harness.stop()
    }

    @Test(
        "the same group again sends nothing; a rate rule crossing its threshold sends one",
        arguments: Storage.allCases)
    func onceThenRate(storage: Storage) async throws {
        let harness = try await AlertHarness(storage: storage)
        try await harness.start()
        try harness.addRule(["--name", "new fields", "--when", "new"])
        try await harness.post(paths: ["title"], decodes: 1000)
        try await harness.waitForRequests(1)
        try await harness.post(paths: ["title"], count: 2)
        try await harness.waitForEvaluations()
        #expect(harness.receiver.requests.count == 1)

        // 3 of 1000 decodes fail: under 5 %, no alert.
        try harness.addRule(["--name", "posts rate", "--when", "rate-above:5", "--endpoint", "GET /v2/posts"])
        try await harness.waitForEvaluations()
        #expect(harness.receiver.requests.count == 1)
        // 103 of 1100: 9.4 %, one alert, and no more while it stays above.
        try await harness.post(paths: ["title"], count: 100, decodes: 100)
        try await harness.waitForRequests(2)
        let text = try harness.text(1)
        #expect(text.contains("posts rate") && text.contains("103 failures, 9.4% of decodes"), "\(text)")
        try await harness.post(paths: ["title"], count: 100, decodes: 100)
        try await harness.waitForEvaluations()
        #expect(harness.receiver.requests.count == 2)
        try await harness.stop()
    }

    @Test("500 new groups at once send one JSON alert that lists the top 10, counts 500 and matches the schema")
    func stormBecomesOneSummary() async throws {
        let harness = try await AlertHarness(storage: .sqlite)
        try await harness.start(flags: ["--alert-interval", "1s", "--public-url", "https://dw.example.com/"])
        try harness.addRule(["--name", "bad deploy", "--when", "new", "--format", "json"])
        #expect(try await harness.post(paths: (0..<500).map { "field\($0)" }).status == 202)
        try await harness.waitForRequests(1)
        try await harness.waitForEvaluations()
        #expect(harness.receiver.requests.count == 1)
        let alert = try harness.alert(0)
        #expect(alert.total == 500)
        #expect(alert.fields.count == 10)
        #expect(alert.fields.allSatisfy { $0.url?.hasPrefix("https://dw.example.com/groups/") == true })
        #expect(try AlertSchema.validate(harness.receiver.requests[0].body) == "valid")
        try await harness.stop()
    }

    @Test("two replicas on one PostgreSQL send each alert once")
    func replicasSendOnce() async throws {
        let harness = try await AlertHarness(storage: .postgres)
        try await harness.start(replicas: 2)
        try harness.addRule(["--name", "new fields", "--when", "new"])
        // Both replicas receive reports, and both evaluate every second.
        try await harness.post(paths: ["title", "body"], to: 0)
        try await harness.post(paths: ["author"], to: 1)
        try await harness.waitForRequests(1)
        try await harness.waitForEvaluations(3)
        let texts = try harness.receiver.requests.indices.map { try harness.text($0) }
        // One alert per group, whoever sent it: a late report may make a second evaluation, never a repeat.
        let mentioned = texts.flatMap { text in
            ["title", "body", "author"].filter { text.contains("`$.results[*].\($0)`") }
        }
        #expect(mentioned.sorted() == ["author", "body", "title"], "\(texts)")
        try await harness.stop()
    }

    @Test("a slow, failing webhook is retried and logged without its secret, and ingest stays fast meanwhile")
    func slowWebhook() async throws {
        let harness = try await AlertHarness(
            storage: .sqlite, receiver: try await TestReceiver.webhook(statuses: [503], delay: .seconds(3)))
        try await harness.start()
        try harness.addRule(["--name", "new fields", "--when", "new"])
        try await harness.post(paths: ["title"])
        try await harness.waitForRequests(1)
        // While the webhook is slow and then retried, every batch is answered at once.
        var slowest: TimeInterval = 0
        for _ in 0..<20 {
            let answer = try await harness.post(paths: ["title"], to: 0)
            #expect(answer.status == 202)
            slowest = max(slowest, answer.seconds)
        }
        #expect(slowest < 1, "slowest ingest answer \(slowest)s")
        try await harness.waitForRequests(2)
        try await eventually(every: .milliseconds(100)) {
            try await harness.counter(#"decodewatch_alert_deliveries_total{outcome="delivered"}"#) != 0
        }
        #expect(try await harness.counter("decodewatch_alert_delivery_retries_total") == 1)
        let log = harness.servers[0].readLog()
        #expect(log.contains("Alert delivery attempt failed; retrying"))
        #expect(log.contains("HTTP 503"))
        #expect(log.contains("Alert delivered"))
        #expect(!log.contains("secret-token-123"))
        try await harness.stop()
    }

    @Test("a webhook that is down fails the delivery, logs it, and the next evaluation retries it")
    func downWebhook() async throws {
        let harness = try await AlertHarness(
            storage: .sqlite, receiver: try await TestReceiver.webhook(statuses: [500, 500, 500, 500]))
        try await harness.start()
        try harness.addRule(["--name", "new fields", "--when", "new"])
        try await harness.post(paths: ["title"])
        // Four failed attempts (2 s, 4 s, 8 s apart), then the claim is given back and the next evaluation delivers.
        try await harness.waitForRequests(5, timeout: 40)
        #expect(try await harness.counter(#"decodewatch_alert_deliveries_total{outcome="failed"}"#) == 1)
        let log = harness.servers[0].readLog()
        #expect(log.contains("Alert delivery failed"))
        #expect(!log.contains("secret-token-123"))
        try await harness.stop()
    }
}

/// Validates a delivered alert against `schemas/alert.v1.schema.json` with Python's `jsonschema`.
enum AlertSchema {
    static func validate(_ body: Data) throws -> String {
        let schema = CLI.repository.appendingPathComponent("schemas/alert.v1.schema.json").path
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            errors = list(jsonschema.Draft202012Validator(schema).iter_errors(json.load(sys.stdin)))
            print("valid" if not errors else "; ".join(e.message for e in errors))
            """
        return try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, schema], input: body)
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
