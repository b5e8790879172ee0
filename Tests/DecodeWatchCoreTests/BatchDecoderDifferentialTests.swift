import Foundation
import Testing

@testable import DecodeWatchCore

@Suite("The one-pass batch reader agrees with StrictJSON + JSONDecoder")
struct BatchDecoderDifferentialTests {
    /// Both readers' outcome for one body: the batch, or the refusal with its code and message.
    static func outcomes(_ body: [UInt8], maxReports: Int = 10) -> (new: String, reference: String) {
        let new = Result { () throws(BatchError) in
            try body.withUnsafeBytes { raw in
                Result { () throws(BatchError) in try BatchDecoder.decode(raw, maxReports: maxReports).asRead(from: raw)
                }
            }.get()
        }
        let reference = Result { () throws(BatchError) in
            try ReferenceBatchDecoder.decode(Data(body), maxReports: maxReports)
        }
        return ("\(new)", Self.clarified("\(reference)"))
    }

    /// The reference's outcome with its one known vague message made precise, as the new reader words it.
    ///
    /// Foundation reports a number that is not a whole `Int` (`1.5`, `1e30`) without its field; the only integer
    /// fields of a batch are the `count`s, so the new reader can name it.
    static func clarified(_ outcome: String) -> String {
        outcome.replacing(/(reports|decodes)(\[\d+\]): number ([^ "]+) does not fit/) { match in
            "\(match.1)\(match.2).count: expected a whole number that fits in 64 bits, got \(match.3)"
        }
    }

    /// Checks that both readers agree on `body` and returns how the new one judged it, so a test can check that
    /// its cases reach every outcome.
    @discardableResult
    static func expectAgreement(_ body: [UInt8], seed: UInt64) -> String {
        let (new, reference) = outcomes(body)
        // Where they part, so a failure shows the difference rather than two whole batches.
        let same = zip(new, reference).prefix { $0 == $1 }.count
        #expect(
            new == reference,
            """
            seed \(seed), body: \(String(decoding: body, as: UTF8.self))
             new: …\(new.dropFirst(max(0, same - 150)).prefix(400))
             reference: …\(reference.dropFirst(max(0, same - 150)).prefix(400))
            """)
        if new.contains("invalid_json") { return "not JSON" }
        if new.hasPrefix("failure") { return "refused" }
        return new.contains(".failure(") ? "read, some rejected" : "read"
    }

    @Test(
        "generated batches (any member order, escapes, number forms, wrong types, nulls) read alike", arguments: 0..<8)
    func generatedBatches(block: UInt64) {
        var seen: Set<String> = []
        for seed in block * 500..<(block + 1) * 500 {
            var generator = BatchTextGenerator(seed: seed)
            let text = generator.write(generator.batch())
            seen.insert(Self.expectAgreement(Array(text.utf8), seed: seed))
        }
        #expect(seen == ["refused", "read, some rejected", "read"])
    }

    @Test("mutated batches (bytes deleted, inserted, replaced, cut short) fail or read alike", arguments: 0..<8)
    func mutatedBatches(block: UInt64) {
        var seen: [String: Int] = [:]
        for seed in block * 500..<(block + 1) * 500 {
            var generator = BatchTextGenerator(seed: seed)
            let text = generator.write(generator.batch())
            seen[Self.expectAgreement(generator.mutate(text), seed: seed), default: 0] += 1
        }
        // Most mutations break the syntax; enough of them leave JSON that reads for the rest to be compared too.
        #expect(seen["not JSON", default: 0] > 250)
        #expect(seen["read, some rejected", default: 0] + seen["read", default: 0] > 25, "\(seen)")
    }

    @Test("a batch over the report limit is refused with its full count by both")
    func reportLimit() {
        let reports = Array(repeating: #"{"oops":1}"#, count: 13).joined(separator: ",")
        let body = Array(#"{"batch_id":"b","app":{"id":"a"},"reports":[\#(reports)]}"#.utf8)
        let (new, reference) = Self.outcomes(body)
        #expect(new == reference)
        #expect(new.contains("The batch has 13 reports; send at most 10"))
    }
}
