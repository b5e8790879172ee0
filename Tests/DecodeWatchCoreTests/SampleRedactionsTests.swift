import Foundation
import Testing

@testable import DecodeWatchCore

/// Redaction remembered across batches: a hit is exactly what redacting again would give, and memory stays bounded.
@Suite("Remembered sample redactions")
struct SampleRedactionsTests {
    static let samples = [
        Sample(
            snippet: #"{"email":"ada@example.com","id":1}"#, message: "token sk_live_abcdefghijklmnop", type: "User"),
        Sample(
            snippet: #"{"email":"bob@example.com","id":1}"#, message: "token sk_live_abcdefghijklmnop", type: "User"),
        Sample(snippet: #""SPONSOR""#, message: nil, type: "Issue", keyDecoding: .convertFromSnakeCase),
        Sample(snippet: nil, message: "Invalid URL string.", type: nil),
        Sample(snippet: String(repeating: "x", count: 5000), message: nil, type: nil),
    ]

    @Test("every sample, first seen or remembered, comes back as the redactor makes it")
    func hitsEqualRedaction() {
        let redactor = Redactor()
        let redactions = SampleRedactions(redactor: redactor)
        for _ in 0..<3 {
            for sample in Self.samples {
                #expect(redactions.redacted(sample) == redactor.redacted(sample))
            }
        }
        #expect(redactions.redacted(Self.samples[0]).snippet?.contains("ada@example.com") == false)
        #expect(redactions.redacted(Self.samples[1]).snippet?.contains("bob@example.com") == false)
    }

    @Test("past its byte bound it starts over and still redacts every sample")
    func boundedMemory() {
        let redactor = Redactor()
        let redactions = SampleRedactions(redactor: redactor)
        let big = String(repeating: "y", count: 60_000)
        // Twice the bound, in distinct samples.
        for index in 0..<(2 * SampleRedactions.maxBytes / 60_000 + 1) {
            let sample = Sample(snippet: #"{"email":"u\#(index)@example.com","pad":"\#(big)"}"#)
            #expect(redactions.redacted(sample) == redactor.redacted(sample))
        }
        #expect(redactions.redacted(Self.samples[0]) == redactor.redacted(Self.samples[0]))
    }

    @Test("batches folded through one pipeline keep samples as if each were redacted alone")
    func pipelineSharesRedactions() throws {
        let pipeline = IngestPipeline()
        let body = Data(
            #"""
            {"batch_id":"b","app":{"id":"a"},"reports":[{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /u",
            "path":["email"],"kind":"typeMismatch","snippet":"{\"email\":\"ada@example.com\"}"}]}
            """#.utf8)
        for _ in 0..<2 {
            let batch = try pipeline.validate(BatchSource(body: body, encoding: .identity), receivedAt: Date())
            let aggregate = pipeline.aggregate(batch)
            let alone = BatchAggregate(
                try BatchValidator().validate(body, receivedAt: Date()), redactor: Redactor())
            #expect(aggregate.groups.map(\.sample) == alone.groups.map(\.sample))
            #expect(aggregate.groups.first?.sample.snippet?.contains("ada@example.com") == false)
        }
    }
}
