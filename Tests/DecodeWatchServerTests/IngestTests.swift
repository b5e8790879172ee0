import DecodeWatchCore
import DecodeWatchTestSupport
import DecodeWatchZlib
import Foundation
import GRDB
import Testing

@testable import DecodeWatchServer

@Suite("POST /v1/reports")
struct IngestTests {
    @Test("a deflate batch is committed before the 202 answer", arguments: ["deflate", "gzip", "identity", nil])
    func acceptsEveryEncoding(encoding: String?) async throws {
        try await TestCollector.run { collector in
            let answer = try await collector.ingest(
                Batches.batch(reports: [Batches.report(), Batches.report(path: ["results", 7, "title"], count: 4)]),
                encoding: encoding)
            #expect(answer.status == 202)
            #expect(try answer.decoded(IngestAnswer.self).accepted == 2)
            #expect(try answer.decoded(IngestAnswer.self).rejected.isEmpty)
            #expect(try answer.decoded(IngestAnswer.self).duplicate == false)
            let fields = try await collector.store.fields(Self.lastDay)
            #expect(fields.fields.map(\.count) == [5])
            #expect(fields.fields.first?.path == "$.results[*].title")
        }
    }

    @Test(
        "with direct ingest, batches are acknowledged after their rollups, inflated from the socket's buffer, and bad bodies refused as with the log"
    )
    func acknowledgesAfterRollupsWithDirectIngest() async throws {
        try await TestCollector.run(ServerConfiguration(port: 0, ingestMode: .direct)) { collector in
            for encoding in ["deflate", "gzip", "identity"] {
                let answer = try await collector.ingest(Batches.batch(reports: [Batches.report()]), encoding: encoding)
                #expect(answer.status == 202, "\(encoding)")
            }
            let corrupt = try await collector.send(
                "POST", "/v1/reports", body: Data("definitely not zlib".utf8),
                headers: ["Content-Type": "application/json", "Content-Encoding": "deflate"])
            #expect(corrupt.status == 400)
            #expect(corrupt.errorCode == "invalid_encoding")
            let bomb = try await collector.send(
                "POST", "/v1/reports", body: Bomb.zeros(inflatedSize: 1 << 30),
                headers: ["Content-Type": "application/json", "Content-Encoding": "deflate"])
            #expect(bomb.status == 413)
            #expect(try await collector.store.fields(Self.lastDay).fields.map(\.count) == [3])
            #expect(!FileManager.default.fileExists(atPath: collector.databasePath + "-pending-wal"), "the log opened")
        }
    }

    @Test("a Content-Type with a UTF-8 charset parameter is accepted")
    func acceptsCharset() async throws {
        try await TestCollector.run { collector in
            let answer = try await collector.ingest(
                try Batches.oneReportJSON(), contentType: "application/json; charset=UTF-8")
            #expect(answer.status == 202)
        }
    }

    @Test("malformed reports are rejected by index while the good ones around them are stored")
    func partialAcceptance() async throws {
        try await TestCollector.run { collector in
            var badTime = Batches.report()
            badTime["occurred_at"] = "yesterday"
            var noPath = Batches.report()
            noPath.removeValue(forKey: "path")
            let reports: [[String: Any]] = [
                Batches.report(), Batches.report(kind: "oops"), noPath, Batches.report(count: 0), badTime,
                Batches.report(path: ["results", -1]), Batches.report(endpoint: "/v2/posts"), Batches.report(count: 2),
            ]
            let answer = try await collector.ingest(Batches.batch(reports: reports))
            #expect(answer.status == 202)
            #expect(try answer.decoded(IngestAnswer.self).accepted == 2)
            let rejected = try answer.decoded(IngestAnswer.self).rejected
            #expect(rejected.map(\.index) == [1, 2, 3, 4, 5, 6])
            let errors = rejected.map(\.error)
            #expect(errors[0] == "reports[1].kind: unknown kind 'oops'")
            #expect(errors[1] == "reports[2].path: required field is missing")
            #expect(errors[2] == "reports[3].count: must be from 1 to 1000000, got 0")
            #expect(errors[3].hasPrefix("reports[4].occurred_at:"))
            #expect(errors[4].hasPrefix("reports[5].path[1]:"))
            #expect(errors[5].hasPrefix("reports[6].endpoint: expected \"METHOD /path\""))
            let stored = try await collector.store.fields(Self.lastDay)
            #expect(stored.fields.map(\.count) == [3])
        }
    }

    @Test("a batch sent twice is counted once and the second answer says duplicate")
    func duplicateBatch() async throws {
        try await TestCollector.run { collector in
            let batch = Batches.batch(id: "1f0c6f0e-3c2a-4e0b-9a51-7d1d0c6c9e11", reports: [Batches.report(count: 3)])
            let first = try await collector.ingest(batch)
            let second = try await collector.ingest(batch, encoding: "gzip")
            #expect(try first.decoded(IngestAnswer.self).duplicate == false)
            #expect(second.status == 202)
            #expect(try second.decoded(IngestAnswer.self).duplicate == true)
            #expect(try second.decoded(IngestAnswer.self).accepted == 1)
            #expect(try await collector.store.fields(Self.lastDay).fields.map(\.count) == [3])
        }
    }

    @Test("unknown fields are ignored", arguments: [true])
    func unknownFieldsIgnored(_: Bool) async throws {
        try await TestCollector.run { collector in
            var report = Batches.report()
            report["future_field"] = ["nested": true]
            var batch = Batches.batch(reports: [report])
            batch["another"] = 1
            let answer = try await collector.ingest(batch)
            #expect(answer.status == 202)
            #expect(try answer.decoded(IngestAnswer.self).accepted == 1)
        }
    }

    @Test("long messages and snippets are cut, and snippets are redacted before storing")
    func truncatesAndRedacts() async throws {
        try await TestCollector.run { collector in
            let snippet =
                #"{"id":"pos_2","email":"ann@example.com","body":""# + String(repeating: "x", count: 3000) + #""}"#
            var report = Batches.report(snippet: snippet)
            report["message"] = String(repeating: "m", count: 1500)
            let answer = try await collector.ingest(Batches.batch(reports: [report]))
            #expect(try answer.decoded(IngestAnswer.self).accepted == 1)
            let field = try #require(try await collector.store.fields(Self.lastDay).fields.first)
            #expect(field.sample.message?.count == 1000)
            let stored = try #require(field.sample.snippet)
            #expect(!stored.contains("ann@example.com"))
            #expect(stored.utf8.count <= 2048)
        }
    }

    @Test("an unsupported Content-Type is refused with 415")
    func unsupportedContentType() async throws {
        try await TestCollector.run { collector in
            let answer = try await collector.ingest(try Batches.oneReportJSON(), contentType: "text/plain")
            #expect(answer.status == 415)
            #expect(answer.errorCode == "unsupported_media_type")
            #expect(answer.errorMessage?.contains("application/json") == true)
        }
    }

    @Test("an unsupported Content-Encoding is refused with 415")
    func unsupportedEncoding() async throws {
        try await TestCollector.run { collector in
            let json = try Batches.oneReportJSON()
            let answer = try await collector.send(
                "POST", "/v1/reports", body: json,
                headers: ["Content-Type": "application/json", "Content-Encoding": "br"])
            #expect(answer.status == 415)
            #expect(answer.errorCode == "unsupported_encoding")
        }
    }

    @Test(
        "a body that is not a batch is refused with 400 naming the problem",
        arguments: [
            (#"{"batch_id": "#, "invalid_json", "not valid JSON"),
            ("[1, 2]", "invalid_json", "JSON object"),
            (#"{"app": {"id": "a"}, "reports": []}"#, "invalid_batch", "batch_id"),
            (#"{"batch_id": "b", "reports": []}"#, "invalid_batch", "app"),
            (#"{"batch_id": "b", "app": {"version": "1"}, "reports": []}"#, "invalid_batch", "app.id"),
            (#"{"batch_id": "b", "app": {"id": "a"}}"#, "invalid_batch", "reports"),
            (#"{"batch_id": "b", "app": {"id": "a"}, "reports": {}}"#, "invalid_batch", "reports"),
            (#"{"batch_id": "b", "app": {"id": ""}, "reports": []}"#, "invalid_batch", "app.id"),
            (#"{"batch_id": 7, "app": {"id": "a"}, "reports": []}"#, "invalid_batch", "batch_id"),
        ])
    func refusesBadBatches(body: String, code: String, mentions: String) async throws {
        try await TestCollector.run { collector in
            let answer = try await collector.ingest(Data(body.utf8))
            #expect(answer.status == 400)
            #expect(answer.errorCode == code)
            #expect(answer.errorMessage?.contains(mentions) == true, "\(answer.errorMessage ?? "")")
        }
    }

    @Test("a body that does not inflate is refused with 400: corrupt, truncated or followed by other bytes")
    func refusesBadCompression() async throws {
        try await TestCollector.run { collector in
            let json = try Batches.oneReportJSON()
            let compressed = try Zlib.compress(json)
            let bodies = [
                Data("definitely not zlib".utf8), compressed.prefix(compressed.count - 6), compressed + Data("{}".utf8),
            ]
            for body in bodies {
                let answer = try await collector.send(
                    "POST", "/v1/reports", body: Data(body),
                    headers: ["Content-Type": "application/json", "Content-Encoding": "deflate"])
                #expect(answer.status == 400)
                #expect(answer.errorCode == "invalid_encoding")
            }
            #expect(try await collector.store.fields(Self.lastDay).fields.isEmpty)
        }
    }

    @Test("a compressed body over 1 MiB is refused with 413")
    func refusesLargeBody() async throws {
        try await TestCollector.run { collector in
            var random = SystemRandomNumberGenerator()
            let body = Data((0..<((1 << 20) + 1)).map { _ in UInt8.random(in: 0...255, using: &random) })
            let answer = try await collector.send(
                "POST", "/v1/reports", body: body,
                headers: ["Content-Type": "application/json", "Content-Encoding": "deflate"])
            #expect(answer.status == 413)
            #expect(answer.errorCode == "body_too_large")
        }
    }

    @Test("a 1 MiB body that would inflate to 1 GiB is refused with 413")
    func refusesDecompressionBomb() async throws {
        let bomb = Bomb.zeros(inflatedSize: 1 << 30)
        #expect(bomb.count < 1 << 20)
        try await TestCollector.run { collector in
            let answer = try await collector.send(
                "POST", "/v1/reports", body: bomb,
                headers: ["Content-Type": "application/json", "Content-Encoding": "deflate"])
            #expect(answer.status == 413)
            #expect(answer.errorCode == "inflated_body_too_large" || answer.errorCode == "inflation_ratio_too_high")
        }
    }

    @Test("a body inflating over 16 MiB is refused with 413 even at a modest ratio")
    func refusesInflatedOverLimit() async throws {
        // Base64 of random bytes compresses about 4:3, so the ratio check stays quiet and the size check acts.
        var random = SystemRandomNumberGenerator()
        let text = Data((0..<(13 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }).base64EncodedData()
        let json = Data(#"{"batch_id":"big","app":{"id":"a"},"reports":[],"pad":""#.utf8) + text + Data(#""}"#.utf8)
        let limits = IngestLimits(maxCompressedBytes: 32 << 20)
        try await TestCollector.run(ServerConfiguration(limits: limits)) { collector in
            let answer = try await collector.ingest(json)
            #expect(answer.status == 413)
            #expect(answer.errorCode == "inflated_body_too_large")
        }
    }

    @Test("a body over 64 KiB inflating more than 100:1 is refused with 413")
    func refusesHighRatio() async throws {
        let json =
            Data(#"{"batch_id":"r","app":{"id":"a"},"reports":[],"pad":""#.utf8)
            + Data(repeating: 0x61, count: 200 << 10) + Data(#""}"#.utf8)
        try await TestCollector.run { collector in
            let answer = try await collector.ingest(json)
            #expect(answer.status == 413)
            #expect(answer.errorCode == "inflation_ratio_too_high")
        }
    }

    @Test("a small body with a high ratio is accepted: the ratio applies above 64 KiB only")
    func acceptsSmallHighRatio() async throws {
        var batch = Batches.batch(reports: [Batches.report()])
        batch["pad"] = String(repeating: "a", count: 60 << 10)
        let json = try JSONSerialization.data(withJSONObject: batch)
        #expect(json.count < 64 << 10)
        let compressed = try Zlib.compress(json)
        #expect(json.count > 100 * compressed.count)
        try await TestCollector.run { collector in
            let answer = try await collector.ingest(json)
            #expect(answer.status == 202)
        }
    }

    @Test("more than 1000 reports are refused with 413")
    func refusesTooManyReports() async throws {
        try await TestCollector.run { collector in
            let reports = (0..<1001).map { _ in Batches.report(snippet: UUID().uuidString) }
            let answer = try await collector.ingest(Batches.batch(reports: reports))
            #expect(answer.status == 413)
            #expect(answer.errorCode == "too_many_reports")
            #expect(answer.errorMessage?.contains("1001") == true)
        }
    }

    @Test("a full ingest queue answers 429 with Retry-After and stores nothing")
    func queueFull() async throws {
        try await TestCollector.run(ServerConfiguration(maxConcurrentIngests: 0, retryAfterSeconds: 3)) { collector in
            let answer = try await collector.ingest(Batches.batch(reports: [Batches.report()]))
            #expect(answer.status == 429)
            #expect(answer.errorCode == "ingest_queue_full")
            #expect(answer.header("Retry-After") == "3")
            #expect(try await collector.store.fields(Self.lastDay).fields.isEmpty)
        }
    }

    @Test("an app over its rate limit gets 429 with Retry-After; other apps are not affected")
    func appRateLimit() async throws {
        try await TestCollector.run(ServerConfiguration(appBatchesPerMinute: 1)) { collector in
            #expect(try await collector.ingest(Batches.batch(reports: [Batches.report()])).status == 202)
            let limited = try await collector.ingest(Batches.batch(reports: [Batches.report()]))
            #expect(limited.status == 429)
            #expect(limited.errorCode == "rate_limited")
            #expect(Int(limited.header("Retry-After") ?? "") ?? 0 >= 1)
            #expect(
                try await collector.ingest(Batches.batch(app: "com.example.other", reports: [Batches.report()])).status
                    == 202)
        }
    }

    @Test("while the log of acknowledged batches is locked the answer is 503 with Retry-After and nothing is stored")
    func storageUnavailable() async throws {
        try await TestCollector.run(busyTimeout: 0.2) { collector in
            let blocker = try lockDatabase(collector.databasePath + "-pending")
            let answer = try await collector.ingest(Batches.batch(reports: [Batches.report()]))
            #expect(answer.status == 503)
            #expect(answer.errorCode == "storage_unavailable")
            #expect(answer.header("Retry-After") != nil)
            try await blocker.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
            #expect(try await collector.store.fields(Self.lastDay).fields.isEmpty)
        }
    }

    @Test(
        "while the database is locked a batch is acknowledged from the log, reads answer 503 but readiness does not, and it is folded once the lock is gone"
    )
    func databaseLockedAfterAcknowledgment() async throws {
        try await TestCollector.run(busyTimeout: 0.2) { collector in
            let blocker = try lockDatabase(collector.databasePath)
            let answer = try await collector.ingest(Batches.batch(reports: [Batches.report(count: 3)]))
            #expect(answer.status == 202, "\(answer.text)")
            // Reading now would leave out an acknowledged batch: the answer is 503 instead.
            let read = try await collector.send("GET", "/v1/fields?since=2d")
            #expect(read.status == 503)
            #expect(read.errorCode == "storage_unavailable")
            // Readiness does not wait for folds: the collector still takes batches.
            #expect(try await collector.send("GET", "/readyz").status == 200)
            try await blocker.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
            // Reads answer 503 until the next attempt to fold the batch, a second after the last.
            let counts = try await eventuallyFound(within: .seconds(5), every: .milliseconds(100)) {
                try? await collector.store.fields(Self.lastDay).fields.map(\.count)
            }
            #expect(counts == [3])
        }
    }

    static var lastDay: FieldsQuery {
        FieldsQuery(since: Date().addingTimeInterval(-86_400 * 2), until: Date().addingTimeInterval(3600))
    }
}
