import DecodeWatchCore
import Foundation
import Testing

@testable import DecodeWatchServer

/// A 202 is a promise: what it acknowledges is counted. Regressions of batches that were acknowledged and then lost.
@Suite("Acknowledged is counted")
struct AcknowledgedIsCountedTests {
    static let window = "since=2026-11-21T00:00:00Z&until=2026-11-22T00:00:00Z"

    static func body(app: String, batch: String, path: String = #"["title"]"#) -> Data {
        Data(
            #"{"batch_id":"\#(batch)","app":{"id":"\#(app)"},"reports":[{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /v2/posts","path":\#(path),"kind":"keyNotFound","count":2}]}"#
                .utf8)
    }

    @Test(
        "an app id holding U+0000 is refused with 400 naming app.id, never acknowledged and lost",
        arguments: [#"com.example.\u0000"#, #"\u0000"#], IngestMode.allCases)
    func nulAppIDRefused(app: String, mode: IngestMode) async throws {
        try await TestCollector.run(ServerConfiguration(port: 0, ingestMode: mode)) { collector in
            let refused = try await collector.ingest(Self.body(app: app, batch: "nul"))
            #expect(refused.status == 400)
            #expect(refused.errorCode == "invalid_batch")
            #expect(refused.errorMessage?.hasPrefix("app.id: holds U+0000") == true, "\(refused.text)")
            // The same batch id, sent correctly, is new: the refusal kept nothing.
            let fixed = try await collector.ingest(Self.body(app: "com.example.shop", batch: "nul"))
            #expect(fixed.status == 202)
            #expect(try fixed.decoded(IngestAnswer.self).duplicate == false)
            #expect(try await collector.fields(Self.window).fields.map(\.count) == [2])
        }
    }

    @Test(
        "a report dated before 1970 is counted at its receive time; reads reaching before 1970 answer",
        arguments: IngestMode.allCases)
    func beforeTheEpoch(mode: IngestMode) async throws {
        try await TestCollector.run(ServerConfiguration(port: 0, ingestMode: mode)) { collector in
            let answer = try await collector.ingest(
                Data(
                    #"{"batch_id":"old","sent_at":"1969-12-31T23:59:00Z","app":{"id":"com.example.shop"},"decodes":[{"endpoint":"GET /v2/posts","count":4}],"reports":[{"occurred_at":"1969-12-31T23:30:00Z","endpoint":"GET /v2/posts","path":["title"],"kind":"keyNotFound"},{"occurred_at":"0001-01-01T00:00:00Z","endpoint":"GET /v2/posts","path":["title"],"kind":"keyNotFound"}]}"#
                        .utf8))
            #expect(answer.status == 202)
            #expect(try answer.decoded(IngestAnswer.self).accepted == 2)
            for query in [
                "since=1960-01-01T00:00:00Z", "since=0001-01-01T00:00:00Z&until=1969-01-01T00:00:00Z", "since=1h",
            ] {
                let fields = try await collector.fields(query).fields
                #expect(fields.map(\.count) == (query.contains("until") ? [] : [2]), "\(query)")
            }
            #expect(try await collector.send("GET", "/healthz").status == 200)
        }
    }

    @Test(
        "batches whose strings differ only by canonical equivalence are two batches, each counted",
        arguments: IngestMode.allCases)
    func canonicalEquivalentBatchesCounted(mode: IngestMode) async throws {
        try await TestCollector.run(ServerConfiguration(port: 0, ingestMode: mode)) { collector in
            // "café" composed (U+00E9) and decomposed (e + U+0301), as batch id, app id and path key.
            for spelling in [#"caf\u00e9"#, #"cafe\u0301"#] {
                let answer = try await collector.ingest(
                    Self.body(app: "com.\(spelling)", batch: spelling, path: #"["\#(spelling)"]"#))
                #expect(answer.status == 202)
                #expect(try answer.decoded(IngestAnswer.self).accepted == 1)
                #expect(try answer.decoded(IngestAnswer.self).duplicate == false, "\(answer.text)")
            }
            let fields = try await collector.fields(Self.window).fields
            #expect(fields.count == 2)
            #expect(fields.map(\.count) == [2, 2])
            #expect(Set(fields.map { Array($0.app.utf8) }).count == 2)
        }
    }
}
