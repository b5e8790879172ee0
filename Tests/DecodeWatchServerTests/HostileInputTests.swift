import DecodeWatchCore
import DecodeWatchStore
import Foundation
import GRDB
import Testing

@testable import DecodeWatchServer

@Suite("Hostile input never crashes, answers 500 or corrupts")
struct HostileInputTests {
    static let lastDay = FieldsQuery(
        since: Date().addingTimeInterval(-86_400), until: Date().addingTimeInterval(3600))
    static let head = "POST /v1/reports HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"

    @Test(
        "broken HTTP framing gets a 4xx or a closed connection, never a 500",
        arguments: [
            "Content-Length: 100\r\n\r\n{\"a\":1}",  // shorter than declared, then EOF
            "Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",  // chunk size not hex
            "Transfer-Encoding: chunked\r\n\r\n100\r\nabc\r\n",  // chunk size past the data
            "Transfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\nabc\r\n",  // huge chunk size
            "Content-Length: -5\r\n\r\n{}",
            "Content-Length: 2\r\nContent-Length: 30\r\n\r\n{}",
            "Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n{}",
        ])
    func brokenFraming(rest: String) async throws {
        try await TestCollector.run { collector in
            let exchange = try RawHTTP.exchange(port: collector.port, Array((Self.head + rest).utf8))
            if let status = exchange.status {
                #expect((400..<500).contains(status), "answered \(exchange.response)")
            } else {
                #expect(exchange.closed)
            }
            // The collector is still there.
            #expect(try await collector.send("GET", "/healthz").status == 200)
        }
    }

    /// A valid batch whose one report has `count` written as given: where hostile numbers hide.
    static func batch(count: String = "1", path: String = #"["results", 1, "title"]"#, tail: String = "") -> String {
        #"{"batch_id": "b-1", "app": {"id": "com.example.shop"}, "reports": [{"occurred_at": "2026-11-21T09:59:58Z", "#
            + #""endpoint": "GET /v2/posts", "path": \#(path), "kind": "keyNotFound", "count": \#(count)}\#(tail)]}"#
    }

    @Test(
        "text that is not JSON is refused with 400 invalid_json naming where it broke, and nothing is stored",
        arguments: [
            (batch(tail: ","), "trailing comma before ']'"),
            (#"{"batch_id": "b", "app": {"id": "a",}, "reports": []}"#, "trailing comma before '}'"),
            ("{\"batch_id\": \"b\u{01}\", \"app\": {\"id\": \"a\"}, \"reports\": []}", "control character U+0001"),
            (#"{"batch_id": "b\x", "app": {"id": "a"}, "reports": []}"#, #"invalid escape '\x'"#),
            (#"{"batch_id": "b\u12em", "app": {"id": "a"}, "reports": []}"#, "exactly 4 hex digits"),
            (#"{"batch_id": "b\uD800", "app": {"id": "a"}, "reports": []}"#, "lone surrogate"),
            (#"{"batch_id": "b\uDC00x", "app": {"id": "a"}, "reports": []}"#, "lone surrogate"),
            (batch(count: "01"), "leading zero"),
            (batch(count: "0."), "no digit after the decimal point"),
            (batch(count: "1e"), "exponent with no digits"),
            (batch(count: "1e+"), "exponent with no digits"),
            (batch(count: "1.e5"), "no digit after the decimal point"),
            (batch(count: "1.2.3"), "more than one decimal point"),
            (batch(count: "-"), "expected a digit after '-'"),
            (batch(count: "--1"), "expected a digit after '-'"),
            (batch(count: "+1"), "leading '+'"),
            (batch(count: ".5"), "starting with '.'"),
            (batch(count: "NaN"), "NaN"),
            (batch(count: "Infinity"), "Infinity"),
            (batch(path: #"["results", 01]"#), "leading zero"),
            (batch() + " x", "unexpected text after the JSON value"),
            (String(repeating: "[", count: 200), "nesting deeper than"),
            ("\u{FEFF}" + batch(), "byte order mark"),
        ])
    func notJSON(body: String, reason: String) async throws {
        try await TestCollector.run { collector in
            let answer = try await collector.ingest(Data(body.utf8), encoding: "deflate")
            #expect(answer.status == 400, "\(answer.text)")
            #expect(answer.errorCode == "invalid_json")
            #expect(answer.errorMessage?.contains(reason) == true, "\(answer.errorMessage ?? "")")
            #expect(answer.errorMessage?.contains("at line 1, column") == true)
            #expect(try await collector.store.fields(Self.lastDay).fields.isEmpty)
        }
    }

    @Test("the same batch written as strict JSON is accepted")
    func strictJSONAccepted() async throws {
        try await TestCollector.run { collector in
            let answer = try await collector.ingest(Data(Self.batch(count: "12").utf8), encoding: "deflate")
            #expect(answer.status == 202, "\(answer.text)")
        }
    }

    @Test("a body that stalls gets 408 after the read timeout and frees its ingest slot")
    func stalledBody() async throws {
        let configuration = ServerConfiguration(maxConcurrentIngests: 1, readTimeout: .seconds(1))
        try await TestCollector.run(configuration) { collector in
            let exchange = try RawHTTP.exchange(
                port: collector.port, Array((Self.head + "Content-Length: 1000\r\n\r\n{\"batch_id\":").utf8),
                halfClose: false, timeout: 5)
            #expect(exchange.status == 408)
            #expect(exchange.response.contains("body_timeout"))
            #expect(exchange.seconds < 4)
            // The only ingest slot is free again.
            #expect(try await collector.ingest(Batches.batch(reports: [Batches.report()])).status == 202)
        }
    }

    @Test("past the connection cap a new connection waits until one closes, and is then served")
    func connectionCap() async throws {
        try await TestCollector.run(ServerConfiguration(maxConnections: 1)) { collector in
            let port = collector.port
            let health = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
            // Hold the only connection with a request that never finishes its headers.
            let holder = Task.detached {
                try RawHTTP.exchange(port: port, Array("GET /healthz HTTP/1.1\r\n".utf8), halfClose: false, timeout: 2)
            }
            // The collector announces no accepted connection: the holder is given time to be served first.
            try await Task.sleep(for: .milliseconds(300))
            let waiting = try await Task.detached { try RawHTTP.exchange(port: port, health, timeout: 1) }.value
            #expect(waiting.status == nil)
            _ = try await holder.value
            let served = try await Task.detached { try RawHTTP.exchange(port: port, health, timeout: 5) }.value
            #expect(served.status == 200)
        }
    }

    @Test("decode counts that would overflow when summed are refused per entry, and the summary keeps answering")
    func overflowingDecodes() async throws {
        try await TestCollector.run { collector in
            let decodes: [[String: Any]] = [
                ["endpoint": "GET /v2/posts", "count": Int.max], ["endpoint": "GET /v2/posts?page=2", "count": 1],
                ["endpoint": "GET /v2/posts", "count": 1_000_000_000],
            ]
            let answer = try await collector.ingest(Batches.batch(decodes: decodes, reports: [Batches.report()]))
            #expect(answer.status == 202)
            let warnings = try answer.decoded(IngestAnswer.self).warnings
            #expect(
                warnings == ["decodes[0].count: must be a whole number from 0 to 1000000000, got \(Int.max); dropped"])
            let fields = try await collector.fields("since=1d")
            #expect(fields.fields.first?.rate == 1.0 / 1_000_000_001)
        }
    }

    @Test("counts past the storage cap saturate instead of overflowing, and every query keeps answering 200")
    func countsSaturate() async throws {
        try await TestCollector.run { collector in
            let reports = [Batches.report(count: 1_000_000)]
            #expect(try await collector.ingest(Batches.batch(reports: reports)).status == 202)
            _ = try await collector.store.fields(Self.lastDay)  // the batch is in the rollups once this answers
            // Bring the rollup cells next to the cap, as 17.6 million such batches would.
            try await DatabaseQueue(path: collector.databasePath).write { db in
                for table in ["group_hours", "group_hour_versions", "group_minutes", "group_minute_versions"] {
                    try db.execute(sql: "UPDATE \(table) SET count = ?", arguments: [StoredCount.max - 5])
                }
            }
            let second = try await collector.ingest(Batches.batch(reports: reports))
            #expect(second.status == 202, "\(second.text)")
            let fields = try await collector.fields("since=1d")
            #expect(fields.fields.first?.count == Int(StoredCount.max))
            #expect(fields.fields.first?.versions["5.2.0"] == Int(StoredCount.max))
        }
    }

    @Test(
        "only the 400 reasons refuse a batch: bad header values are cut or dropped and named in warnings",
        arguments: [
            (
                #"{"app": {"id": "com.example.shop", "version": "\#(String(repeating: "9", count: 100))"}}"#,
                "app.version: 100 characters, cut to 64"
            ),
            (#"{"app": {"id": "com.example.shop", "build": 5201}}"#, "app.build: expected a string; dropped"),
            (#"{"sent_at": "yesterday"}"#, "sent_at: 'yesterday' is not an RFC 3339 time; dropped"),
            (
                #"{"sent_at": "2999-01-01T00:00:00Z"}"#,
                "sent_at: more than an hour ahead of the collector's clock; the receive time is used"
            ),
            (#"{"sdk": "decodewatch"}"#, "sdk: expected an object; dropped"),
            (#"{"install_id": "\#(String(repeating: "i", count: 300))"}"#, "install_id: 300 characters, cut to 128"),
            (#"{"decodes": "many"}"#, "decodes: expected an array of {endpoint, count}; dropped"),
            (
                #"{"decodes": [{"endpoint": "/v2/posts", "count": 3}]}"#,
                "decodes[0].endpoint: expected \"METHOD /path\", got '/v2/posts'; dropped"
            ),
            (
                #"{"decodes": [{"endpoint": "GET /v2/posts", "count": -1}]}"#,
                "decodes[0].count: must be a whole number from 0 to 1000000000, got -1; dropped"
            ),
            (
                #"{"decodes": [{"endpoint": "GET /v2/posts", "count": 1.5}]}"#,
                "decodes[0].count: expected a whole number that fits in 64 bits, got 1.5; dropped"
            ),
        ])
    func headerProblemsAreWarnings(change: String, warning: String) async throws {
        try await TestCollector.run { collector in
            var batch = Batches.batch(reports: [Batches.report(), Batches.report(path: ["results", 2, "body"])])
            let overlay = try JSONSerialization.jsonObject(with: Data(change.utf8)) as! [String: Any]
            for (key, value) in overlay { batch[key] = value }
            let answer = try await collector.ingest(batch)
            #expect(answer.status == 202, "\(answer.text)")
            #expect(try answer.decoded(IngestAnswer.self).accepted == 2)
            let warnings = try answer.decoded(IngestAnswer.self).warnings
            #expect(warnings.count == 1)
            #expect(warnings.first?.hasPrefix(warning) == true, "\(warnings)")
            #expect(try await collector.store.fields(Self.lastDay).fields.count == 2)
        }
    }

    @Test("a report whose group id is already taken by another app's group is refused, and that group is untouched")
    func groupIdsCannotCrossApps() async throws {
        try await TestCollector.run { collector in
            let report = Batches.report()
            let key = GroupKey(
                app: "com.attacker", endpoint: "GET /v2/posts", path: "$.results[*].title", kind: .keyNotFound)
            // Plant a victim group under the id the attacker's key maps to: what a hash collision would do.
            try await DatabaseQueue(path: collector.databasePath).write { db in try Self.plantVictim(key.id, in: db) }
            let answer = try await collector.ingest(Batches.batch(app: "com.attacker", reports: [report]))
            #expect(answer.status == 409)
            #expect(answer.errorCode == "group_conflict")
            #expect(try await Self.victimCount(key.id, in: collector) == 7)
        }
    }

    @Test("a batch whose group id is taken after its 202 is dropped when folded, and later batches are folded")
    func groupTakenBeforeFolding() async throws {
        try await TestCollector.run(busyTimeout: 0.2) { collector in
            let key = GroupKey(
                app: "com.attacker", endpoint: "GET /v2/posts", path: "$.results[*].title", kind: .keyNotFound)
            // The database is locked, so the batch waits in the log while the victim group is planted.
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let blocker = try DatabaseQueue(path: collector.databasePath, configuration: configuration)
            try await blocker.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
            let answer = try await collector.ingest(Batches.batch(app: "com.attacker", reports: [Batches.report()]))
            #expect(answer.status == 202)
            try await blocker.writeWithoutTransaction { db in
                try Self.plantVictim(key.id, in: db)
                try db.execute(sql: "COMMIT")
            }
            let later = try await collector.ingest(
                Batches.batch(reports: [Batches.report(path: ["results", 2, "body"], count: 2)]))
            #expect(later.status == 202)
            let fields = try await collector.store.fields(Self.lastDay).fields
            #expect(fields.map(\.path) == ["$.results[*].body"])
            #expect(fields.map(\.count) == [2])
            #expect(try await Self.victimCount(key.id, in: collector) == 7)
        }
    }

    /// Stores another app's group, with 7 reports, under an id: what a hash collision would do.
    private static func plantVictim(_ id: String, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO groups (group_id, app_id, endpoint, path, kind, first_seen, last_seen)
                VALUES (?, 'com.victim', 'GET /v1/me', '$.name', 'keyNotFound', 0, 0);
                INSERT INTO group_hours (group_seq, hour, count)
                VALUES ((SELECT group_seq FROM groups WHERE group_id = ?), 0, 7);
                """,
            arguments: [id, id])
    }

    /// The reports stored under a group id.
    private static func victimCount(_ id: String, in collector: TestCollector) async throws -> Int? {
        try await DatabaseQueue(path: collector.databasePath).read { db in
            try Int.fetchOne(
                db, sql: "SELECT SUM(count) FROM group_hours JOIN groups USING (group_seq) WHERE group_id = ?",
                arguments: [id])
        }
    }

    @Test("a window reaching back further than any date can hold is refused with 400, not a crash")
    func hugeDurations() async throws {
        try await TestCollector.run { collector in
            for since in ["99999999999999w", "9223372036854775807s"] {
                let answer = try await collector.send("GET", "/v1/fields?since=\(since)")
                #expect(answer.status == 400)
                #expect(answer.errorCode == "invalid_query")
            }
        }
    }
}

@Suite("Redaction before storing (docs/wire-format.md#redaction)")
struct StoredRedactionTests {
    /// Stores one report and returns the sample the summary shows.
    static func storedSample(
        snippet: String, message: String = "x", configuration: ServerConfiguration = ServerConfiguration()
    ) async throws -> Sample? {
        try await TestCollector.run(configuration) { collector in
            let answer = try await collector.ingest(
                Batches.batch(
                    reports: [Batches.report(snippet: snippet)].map {
                        var report = $0
                        report["message"] = message
                        return report
                    }))
            #expect(answer.status == 202)
            return try await collector.fields("since=1d").fields.first?.sample
        }
    }

    @Test("a snippet over 2 KiB is redacted before it is cut, so keys on either side of the cut are caught")
    func redactedBeforeCut() async throws {
        let filler = String(repeating: "a", count: 2100)
        let snippet =
            #"{"api_key": "sk_live_abcdef123456", "body": "\#(filler)", "card_number": "4111 1111 1111 1111"}"#
        let sample = try #require(try await Self.storedSample(snippet: snippet)?.snippet)
        #expect(sample.utf8.count <= 2048)
        #expect(!sample.contains("sk_live_abcdef123456"))
        #expect(!sample.contains("4111"))
        #expect(sample.contains("<redacted>"))
    }

    @Test("messages are redacted too, and an operator's --redact-key is honoured")
    func messagesAndOperatorKeys() async throws {
        var configuration = ServerConfiguration()
        configuration.sensitiveKeys += ["loyalty_id"]
        let sample = try #require(
            try await Self.storedSample(
                snippet: #"{"loyaltyId": "LY-99812", "title": "ok"}"#,
                message: "Expected String but found jane.doe@example.com at Authorization: Bearer abc.def.ghi",
                configuration: configuration))
        #expect(sample.snippet?.contains("LY-99812") == false)
        #expect(sample.snippet?.contains("\"title\":\"ok\"") == true)
        #expect(sample.message?.contains("jane.doe@example.com") == false)
        #expect(sample.message?.contains("abc.def.ghi") == false)
    }

    @Test("a snippet that is not JSON (an HTML error page) is redacted as text")
    func htmlSnippet() async throws {
        let html =
            "<html><body>Contact admin@example.org, session token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl</body></html>"
        let sample = try #require(try await Self.storedSample(snippet: html)?.snippet)
        #expect(!sample.contains("admin@example.org"))
        #expect(!sample.contains("eyJhbGciOiJIUzI1NiJ9"))
    }
}
