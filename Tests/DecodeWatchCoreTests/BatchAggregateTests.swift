import Foundation
import Testing

@testable import DecodeWatchCore

@Suite("A batch folded into per-group counts")
struct BatchAggregateTests {
    static func report(at time: String, expected: String?, count: Int) -> String {
        let expectedMember = expected.map { #","expected":"\#($0)""# } ?? ""
        return
            #"{"occurred_at":"\#(time)","endpoint":"GET /v2/posts","path":["title"],"kind":"typeMismatch","count":\#(count)\#(expectedMember)}"#
    }

    @Test("a group's reports that switch minute and expected type back and forth are each counted once, in runs")
    func recurringRuns() throws {
        let reports = [
            Self.report(at: "2026-11-28T09:30:05Z", expected: "String", count: 1),
            Self.report(at: "2026-11-28T09:30:40Z", expected: "String", count: 2),
            Self.report(at: "2026-11-28T09:31:10Z", expected: "Int", count: 4),
            Self.report(at: "2026-11-28T09:30:50Z", expected: "String", count: 8),
            Self.report(at: "2026-11-28T09:31:20Z", expected: nil, count: 16),
        ]
        let body = #"{"batch_id":"b1","app":{"id":"com.example.shop"},"reports":[\#(reports.joined(separator: ","))]}"#
        let batch = try BatchValidator().validate(
            Data(body.utf8), receivedAt: RFC3339.date(from: "2026-11-28T10:00:00Z")!)
        let aggregate = BatchAggregate(batch, redactor: Redactor())
        let minute30 = Minute.index(of: RFC3339.date(from: "2026-11-28T09:30:00Z")!)
        #expect(aggregate.groups.count == 1)
        // The first two are one run; the others each start one, the last without an expected type.
        #expect(
            aggregate.groups.first?.counts == [
                MinuteCount(minute: minute30, expected: "String", count: 3),
                MinuteCount(minute: minute30 + 1, expected: "Int", count: 4),
                MinuteCount(minute: minute30, expected: "String", count: 8),
                MinuteCount(minute: minute30 + 1, expected: nil, count: 16),
            ])
        #expect(aggregate.groups.first?.firstSeen == RFC3339.date(from: "2026-11-28T09:30:05Z"))
        #expect(aggregate.groups.first?.lastSeen == RFC3339.date(from: "2026-11-28T09:31:20Z"))
    }
}
