import Foundation
import Testing

@testable import DecodeWatchCore

@Suite("Strings and paths a batch repeats are shared, and still read exactly")
struct RecentValuesTests {
    /// Endpoints of 40 bytes that differ only at byte 10: the length and the first, middle and last eight bytes,
    /// all the table hashes, are the same, so each lookup finds the other one's slot.
    static let twins = ["A", "B"].map { "GET /v2/a/\($0)" + String(repeating: "b", count: 29) }

    static func decode(_ reports: [String]) throws -> [Report] {
        let body = Array(#"{"batch_id":"b","app":{"id":"a"},"reports":[\#(reports.joined(separator: ","))]}"#.utf8)
        let batch = try body.withUnsafeBytes { try BatchDecoder.decode($0, maxReports: 1000).asRead(from: $0) }
        return try batch.reports.map { try $0.get() }
    }

    @Test("endpoints that hash alike but differ are each read as sent")
    func hashTwins() throws {
        #expect(Self.twins.allSatisfy { $0.utf8.count == 40 })
        let sent = (0..<20).map { Self.twins[$0 % 2] }
        let reports = try Self.decode(
            sent.map {
                #"{"occurred_at":"2026-11-27T10:00:00Z","endpoint":"\#($0)","path":["a"],"kind":"keyNotFound"}"#
            })
        #expect(reports.map(\.endpoint) == sent)
    }

    @Test("a repeated message, path key and snippet read the same each time, escaped or not")
    func repeatedStrings() throws {
        let message = #"No value associated with key title (\"title\")."#
        let plain =
            #"{"occurred_at":"2026-11-27T10:00:00Z","endpoint":"GET /v2/posts","path":["author_association"],"#
            + #""kind":"keyNotFound","message":"No value associated with key title.","snippet":"{\"id\":1}"}"#
        let escaped =
            #"{"occurred_at":"2026-11-27T10:00:00Z","endpoint":"GET /v2/posts","path":["author_associatio\u006E"],"#
            + #""kind":"keyNotFound","message":"\#(message)","snippet":"{\"id\":1}"}"#
        let reports = try Self.decode([plain, escaped, plain, escaped, plain])
        #expect(
            reports.map(\.message) == [
                "No value associated with key title.", #"No value associated with key title ("title")."#,
                "No value associated with key title.", #"No value associated with key title ("title")."#,
                "No value associated with key title.",
            ])
        #expect(reports.allSatisfy { $0.path == [.key("author_association")] && $0.snippet == #"{"id":1}"# })
    }

    @Test("a repeated path reads the same each time, written alike or not; a bad one is refused each time")
    func repeatedPaths() throws {
        func report(_ path: String) -> String {
            #"{"occurred_at":"2026-11-27T10:00:00Z","endpoint":"GET /v2/posts","path":\#(path),"kind":"keyNotFound"}"#
        }
        let paths = [#"["items",3,"price"]"#, #"[ "items", 3 , "price" ]"#, #"["items",-3,"price"]"#, "[1.5]"]
        let sent = (0..<12).map { paths[$0 % 4] }
        let body = Array(
            #"{"batch_id":"b","app":{"id":"a"},"reports":[\#(sent.map(report).joined(separator: ","))]}"#.utf8)
        let batch = try body.withUnsafeBytes { try BatchDecoder.decode($0, maxReports: 1000) }
        for (index, slot) in batch.reports.enumerated() {
            switch (index % 4, slot) {
            case (0, .success(let report)), (1, .success(let report)):
                #expect(report.path == [.key("items"), .index(3), .key("price")])
            case (2, .failure(let problem)):
                #expect(problem.text == "reports[\(index)].path[1]: an array index must not be negative, got -3")
            case (3, .failure(let problem)):
                #expect(
                    problem.text.hasPrefix(
                        "reports[\(index)].path[0]: expected an object key (string) or an array index"))
            default:
                Issue.record("report \(index) was read as \(slot)")
            }
        }
    }
}
