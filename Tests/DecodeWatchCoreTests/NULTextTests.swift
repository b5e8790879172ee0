import DecodeWatchCore
import Foundation
import Testing

/// U+0000 (written `\u0000`; raw, it is not JSON) cannot be stored in PostgreSQL's text and ends a C string: every
/// string field holding one is refused before the answer, with the field named, and nothing else is lost.
@Suite("U+0000 in batches")
struct NULTextTests {
    let received = RFC3339.date(from: "2026-11-21T10:00:00Z")!

    func validate(_ json: String) throws(BatchError) -> ValidatedBatch {
        try BatchValidator().validate(Data(json.utf8), receivedAt: received)
    }

    static let report = #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":["x"],"kind":"other"}"#

    @Test(
        "a batch id or app id holding U+0000 refuses the batch, naming the field",
        arguments: [
            (#"{"batch_id":"b\u0000","app":{"id":"com.example.shop"},"reports":[]}"#, "batch_id: holds U+0000"),
            (#"{"batch_id":"b1","app":{"id":"com.example.\u0000"},"reports":[]}"#, "app.id: holds U+0000"),
            (#"{"batch_id":"b1","app":{"id":"\u0000"},"reports":[]}"#, "app.id: holds U+0000"),
        ])
    func identityRefused(json: String, reason: String) {
        #expect {
            _ = try validate(json)
        } throws: { error in
            (error as? BatchError).map { $0.code == .invalidBatch && $0.message.hasPrefix(reason) } ?? false
        }
    }

    @Test(
        "an optional header field holding U+0000 is dropped with a warning naming it; the reports are kept",
        arguments: [
            (#""app":{"id":"a","version":"5\u0000"}"#, "app.version"),
            (#""app":{"id":"a","build":"\u0000"}"#, "app.build"),
            (#""app":{"id":"a","platform":"iOS\u0000"}"#, "app.platform"),
            (#""app":{"id":"a","os":"17\u0000"}"#, "app.os"),
            (#""app":{"id":"a"},"sdk":{"name":"\u0000x"}"#, "sdk.name"),
            (#""app":{"id":"a"},"sdk":{"version":"1\u0000"}"#, "sdk.version"),
            (#""app":{"id":"a"},"install_id":"i\u0000""#, "install_id"),
            (#""app":{"id":"a"},"sent_at":"2026-11-21T09:00:00Z\u0000""#, "sent_at"),
            (#""app":{"id":"a"},"decodes":[{"endpoint":"GET /a\u0000","count":3}]"#, "decodes[0].endpoint"),
        ])
    func headerDropped(header: String, field: String) throws {
        let batch = try validate(#"{"batch_id":"b1",\#(header),"reports":[\#(Self.report)]}"#)
        #expect(batch.accepted.count == 1)
        #expect(batch.warnings.contains { $0.hasPrefix("\(field): holds U+0000") && $0.hasSuffix("; dropped") })
        #expect(batch.app.version == nil && batch.app.build == nil && batch.app.platform == nil && batch.app.os == nil)
        #expect(batch.installID == nil && batch.decodes.isEmpty)
    }

    @Test(
        "a report field holding U+0000 rejects that report, naming the field; the others are accepted",
        arguments: [
            (#""endpoint":"GET /a\u0000","path":["x"]"#, "reports[1].endpoint: holds U+0000"),
            (#""endpoint":"GET /a","path":["x","\u0000"]"#, "reports[1].path[1]: holds U+0000"),
            (#""endpoint":"GET /a","path":["a\\\u0000"]"#, "reports[1].path[0]: holds U+0000"),
            (#""endpoint":"GET /a","path":["x"],"type":"Post\u0000""#, "reports[1].type: holds U+0000"),
            (#""endpoint":"GET /a","path":["x"],"expected":"\u0000""#, "reports[1].expected: holds U+0000"),
            (#""endpoint":"GET /a","path":["x"],"message":"key \u0000.""#, "reports[1].message: holds U+0000"),
            (#""endpoint":"GET /a","path":["x"],"snippet":"{\"a\":\"\u0000\"}""#, "reports[1].snippet: holds U+0000"),
        ])
    func reportRejected(fields: String, reason: String) throws {
        let bad = #"{"occurred_at":"2026-11-21T09:00:00Z",\#(fields),"kind":"other"}"#
        let batch = try validate(
            #"{"batch_id":"b1","app":{"id":"a"},"reports":[\#(Self.report),\#(bad),\#(Self.report)]}"#)
        #expect(batch.accepted.count == 2)
        #expect(batch.rejected.map(\.index) == [1])
        #expect(batch.rejected.first?.error.hasPrefix(reason) == true, "\(batch.rejected)")
    }

    @Test("a backslash before u0000 is text, not U+0000: accepted as sent")
    func escapedBackslashIsNotNUL() throws {
        let batch = try validate(
            #"{"batch_id":"b\\u0000","app":{"id":"a\\u0000"},"reports":[{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":["x\\u0000"],"kind":"other","snippet":"{\"a\":\"\\u0000\"}","message":"\\u0000"}]}"#
        )
        #expect(batch.batchID == #"b\u0000"#)
        #expect(batch.app.id == #"a\u0000"#)
        #expect(batch.rejected.isEmpty)
        #expect(batch.accepted.first?.key.path == #"$['x\\u0000']"#)
    }

    @Test("limits in characters count code points: a letter with 300 combining marks is 301 characters")
    func limitsCountCodePoints() throws {
        let marks = String(repeating: "\u{301}", count: 300)
        #expect {
            _ = try validate(#"{"batch_id":"b1","app":{"id":"a\#(marks)"},"reports":[]}"#)
        } throws: { error in
            (error as? BatchError)?.message.hasPrefix("app.id: must be 1–200 characters, got 301") ?? false
        }
        let batch = try validate(
            #"{"batch_id":"b1","app":{"id":"a","version":"5\#(marks)"},"reports":[{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":["x"],"kind":"other","type":"T\#(marks)"}]}"#
        )
        #expect(batch.app.version?.unicodeScalars.count == 64)
        #expect(batch.warnings == ["app.version: 301 characters, cut to 64"])
        #expect(batch.rejected.first?.error == "reports[0].type: longer than 200 characters")
    }
}
