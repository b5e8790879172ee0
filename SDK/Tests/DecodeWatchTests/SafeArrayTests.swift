import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatch

@Suite struct SafeArrayTests {
    let endpoint = "GET /search/issues?q=sesame"

    @Test("a SafeArray property keeps the good search results and reports the bad one under items")
    func propertyWrapper() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("search_issues.json", [(["items", 1, "state"], ["open": true])])
        let result = try gitHubDecoder().decode(SearchResult.self, from: data, endpoint: endpoint, reporter: reporter)
        #expect(result.items.count == 2)  // a bad SafeEnum does not drop its issue
        #expect(result.items[1].state == .unknown)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.path == ["items", 1, "state"])
        #expect(report.kind == .typeMismatch)
        #expect(report.type == "SearchResult")
    }

    @Test("a SafeArray drops an element that fails and keeps its neighbours")
    func dropsElement() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("search_issues.json", [(["items", 0, "user"], nil)])
        let result = try gitHubDecoder().decode(SearchResult.self, from: data, endpoint: endpoint, reporter: reporter)
        #expect(result.items.count == 1)
        #expect(reporter.pendingReports().map(\.path) == [["items", 0, "user"]])
    }

    @Test("an absent, null or non-array value becomes empty and is reported as what it is")
    func absentNullOrWrongType() throws {
        let cases: [(Any?, ReportKind)] = [(nil, .keyNotFound), (NSNull(), .valueNotFound), ("none", .typeMismatch)]
        for (value, kind) in cases {
            let reporter = TestReporter.make()
            let data = try Fixture.edited("search_issues.json", [(["items"], value)])
            let result = try gitHubDecoder().decode(
                SearchResult.self, from: data, endpoint: endpoint, reporter: reporter)
            #expect(result.items.isEmpty)
            let report = try #require(reporter.pendingReports().first)
            #expect(report.path == ["items"])
            #expect(report.kind == kind)
        }
    }

    @Test("decodeSafeArray gives a plain array in a hand-written initializer")
    func containerHelper() throws {
        struct Page: Decodable {
            let labels: [Label]
            let optional: [Label]?
            enum CodingKeys: CodingKey { case labels, optional }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                labels = try container.decodeSafeArray(Label.self, forKey: .labels)
                optional = try container.decodeSafeArrayIfPresent(Label.self, forKey: .optional)
            }
        }
        let reporter = TestReporter.make()
        let labels = try JSONSerialization.jsonObject(with: Fixture.edited("labels.json", [([2, "color"], 7)]))
        let data = try JSONSerialization.data(withJSONObject: ["labels": labels])
        let page = try JSONDecoder().decode(
            Page.self, from: data, endpoint: "GET /repos/o/r/labels", reporter: reporter)
        #expect(page.labels.count == 8)
        #expect(page.labels.first?.name == "bug")
        #expect(page.optional == nil)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.path == ["labels", 2, "color"])
        #expect(report.expected == "String")
    }
}
