import Foundation
import Testing

@testable import DecodeWatchCore

@Suite("Reports of one shape are grouped once, and each is still checked")
struct ReportShapesTests {
    let received = RFC3339.date(from: "2026-11-28T10:00:00Z")!

    static func report(
        endpoint: String = "GET /v2/posts/1", path: String = #"["results",1,"title"]"#, kind: String = "keyNotFound",
        extra: String = ""
    ) -> String {
        #"{"occurred_at":"2026-11-28T09:30:00Z","endpoint":"\#(endpoint)","path":\#(path),"kind":"\#(kind)"\#(extra)}"#
    }

    static func body(_ reports: [String]) -> String {
        #"{"batch_id":"b1","app":{"id":"com.example.shop"},"reports":[\#(reports.joined(separator: ","))]}"#
    }

    func validate(_ reports: [String]) throws -> ValidatedBatch {
        try BatchValidator().validate(Data(Self.body(reports).utf8), receivedAt: received)
    }

    @Test("the same endpoint, path and kind text is one shape; another kind or path is another")
    func shapeNumbers() throws {
        let reports = [
            Self.report(), Self.report(kind: "typeMismatch"), Self.report(),
            Self.report(path: #"["results",2,"title"]"#),
            Self.report(kind: "typeMismatch"), #"{"endpoint":"GET /a"}"#,
        ]
        let body = Array(Self.body(reports).utf8)
        let batch = try body.withUnsafeBytes { try BatchDecoder.decode($0, maxReports: 100) }
        #expect(batch.shapes == [0, 1, 0, 2, 1, -1])
        #expect(batch.shapeCount == 3)
    }

    @Test("values written differently are two shapes but one group, with every report counted")
    func sameGroupFromDifferentText() throws {
        let result = try validate([
            Self.report(), Self.report(endpoint: "GET /v2/posts/2"), Self.report(path: #"[ "results" , 7, "title" ]"#),
            Self.report(path: #"["results",1,"titl\u0065"]"#), Self.report(),
        ])
        #expect(result.rejected.isEmpty)
        #expect(result.accepted.map(\.group) == [0, 0, 0, 0, 0])
        #expect(
            result.groupKeys == [
                GroupKey(
                    app: "com.example.shop", endpoint: "GET /v2/posts/{id}", path: "$.results[*].title",
                    kind: .keyNotFound)
            ])
        let aggregate = BatchAggregate(result, redactor: Redactor())
        #expect(aggregate.groups.count == 1)
        #expect(aggregate.groups.first?.counts.reduce(0) { $0 + $1.count } == 5)
    }

    @Test("a report of a known shape is still refused for its own type, expected type or count")
    func laterReportsStillChecked() throws {
        let long = String(repeating: "T", count: 201)
        let result = try validate([
            Self.report(), Self.report(extra: #","type":"\#(long)""#), Self.report(extra: #","expected":"\#(long)""#),
            Self.report(extra: #","count":0"#), Self.report(extra: #","count":3"#),
        ])
        #expect(result.rejected.map(\.index) == [1, 2, 3])
        #expect(
            result.rejected.map { $0.error.components(separatedBy: ":").first } == [
                "reports[1].type", "reports[2].expected", "reports[3].count",
            ])
        #expect(result.accepted.map(\.report.count) == [1, 3])
        #expect(result.accepted.map(\.group) == [0, 0])
    }

    @Test("a shape whose first report was refused is grouped by the first one accepted")
    func firstReportRefused() throws {
        let result = try validate([
            Self.report(extra: #","count":0"#), Self.report(kind: "other"), Self.report(), Self.report(),
        ])
        #expect(result.rejected.map(\.index) == [0])
        #expect(result.accepted.map(\.group) == [0, 1, 1])
        #expect(result.groupKeys.map(\.kind) == [.other, .keyNotFound])
    }

    @Test("more shapes than the table holds are each grouped and counted exactly")
    func manyShapes() throws {
        // 300 reports over 150 paths, in an order that makes the 64-slot table evict shapes it meets again.
        let reports = (0..<300).map { n in Self.report(path: #"["field\#((n * 7) % 150)"]"#) }
        let result = try validate(reports)
        #expect(result.accepted.count == 300)
        #expect(result.groupKeys.count == 150)
        for accepted in result.accepted {
            #expect(result.groupKeys[accepted.group] == accepted.key)
        }
        let aggregate = BatchAggregate(result, redactor: Redactor())
        #expect(aggregate.groups.count == 150)
        #expect(aggregate.groups.allSatisfy { $0.counts.reduce(0) { $0 + $1.count } == 2 })
    }
}
