import DecodeWatchCore
import Foundation
import Testing

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
        arguments: [#"com.example.\u0000"#, #"\u0000"#], [false, true])
    func nulAppIDRefused(app: String, withoutLog: Bool) async throws {
        try await TestCollector.run(withoutLog: withoutLog) { collector in
            let refused = try await collector.ingest(Self.body(app: app, batch: "nul"))
            #expect(refused.status == 400)
            #expect(refused.errorCode == "invalid_batch")
            #expect(refused.errorMessage?.hasPrefix("app.id: holds U+0000") == true, "\(refused.text)")
            // The same batch id, sent correctly, is new: the refusal kept nothing.
            let fixed = try await collector.ingest(Self.body(app: "com.example.shop", batch: "nul"))
            #expect(fixed.status == 202)
            #expect(fixed.json["duplicate"] as? Bool == false)
            #expect(try await collector.fields(Self.window).fields.map(\.count) == [2])
        }
    }

    @Test(
        "batches whose strings differ only by canonical equivalence are two batches, each counted",
        arguments: [false, true])
    func canonicalEquivalentBatchesCounted(withoutLog: Bool) async throws {
        try await TestCollector.run(withoutLog: withoutLog) { collector in
            // "café" composed (U+00E9) and decomposed (e + U+0301), as batch id, app id and path key.
            for spelling in [#"caf\u00e9"#, #"cafe\u0301"#] {
                let answer = try await collector.ingest(
                    Self.body(app: "com.\(spelling)", batch: spelling, path: #"["\#(spelling)"]"#))
                #expect(answer.status == 202)
                #expect(answer.json["accepted"] as? Int == 1)
                #expect(answer.json["duplicate"] as? Bool == false, "\(answer.text)")
            }
            let fields = try await collector.fields(Self.window).fields
            #expect(fields.count == 2)
            #expect(fields.map(\.count) == [2, 2])
            #expect(Set(fields.map { Array($0.app.utf8) }).count == 2)
        }
    }
}
