import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatch

@Suite struct SafeEnumTests {
    let endpoint = "GET /repos/o/r/issues"

    @Test("known values decode as their cases without reports")
    func knownValues() throws {
        let reporter = TestReporter.make()
        let issues = try gitHubDecoder().decode(
            [GitHubIssue].self, from: Fixture.data("issues.json"), endpoint: endpoint, reporter: reporter)
        #expect(issues.allSatisfy { $0.state == .open && $0.authorAssociation == .member })
        #expect(reporter.pendingReports().isEmpty)
    }

    @Test("a new state and a new author_association decode as unknown and are reported as unknownValue")
    func unknownValues() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited(
            "issues.json", [([2, "state"], "blocked"), ([4, "author_association"], "MANNEQUIN")])
        let issues = try gitHubDecoder().decode([GitHubIssue].self, from: data, endpoint: endpoint, reporter: reporter)
        #expect(issues.count == 13)
        #expect(issues[2].state == .unknown)
        #expect(issues[4].authorAssociation == .unknown)
        let reports = reporter.pendingReports()
        #expect(reports.count == 2)
        #expect(reports[0].path == [2, "state"])
        #expect(reports[0].kind == .unknownValue)
        #expect(reports[0].expected == "IssueState")
        #expect(reports[0].snippet == #""blocked""#)
        #expect(reports[0].message?.contains("blocked") == true)
        #expect(reports[1].path == [4, "author_association"])
        #expect(reports[1].expected == "AuthorAssociation")
    }

    @Test(
        "a value that is not a string is still reported as the real error kind",
        arguments: [
            ("absent", ReportKind.keyNotFound, nil),
            ("null", .valueNotFound, "String"),
            ("7", .typeMismatch, "String"),
            (#"{"name":"open"}"#, .typeMismatch, "String"),
        ] as [(String, ReportKind, String?)])
    func realKinds(json: String, kind: ReportKind, expected: String?) throws {
        let reporter = TestReporter.make()
        let value =
            json == "absent" ? nil : try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        let data = try Fixture.edited("issues.json", [([6, "state"], value)])
        let issues = try gitHubDecoder().decode([GitHubIssue].self, from: data, endpoint: endpoint, reporter: reporter)
        #expect(issues[6].state == .unknown)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.path == [6, "state"])
        #expect(report.kind == kind)
        if let expected { #expect(report.expected == expected) }
    }

    @Test("an optional safe enum treats absent and null as nil without a report")
    func optionalIsQuiet() throws {
        struct Summary: Decodable { let state: IssueState? }
        let reporter = TestReporter.make()
        let data = try Fixture.edited(
            "issues.json", [([0, "state"], nil), ([1, "state"], NSNull()), ([2, "state"], "new")])
        let summaries = try JSONDecoder().decode([Summary].self, from: data, endpoint: endpoint, reporter: reporter)
        #expect(summaries[0].state == nil && summaries[1].state == nil && summaries[2].state == .unknown)
        #expect(reporter.pendingReports().map(\.kind) == [.unknownValue])
    }

    @Test("an Int-backed safe enum works the same way")
    func intBacked() throws {
        enum Priority: Int, SafeEnum { case low = 1, high = 2, unknown = -1 }
        let reporter = TestReporter.make()
        let values = try JSONDecoder().decode(
            [Priority].self, from: Data("[1,2,3]".utf8), endpoint: "GET /p", reporter: reporter)
        #expect(values == [.low, .high, .unknown])
        #expect(reporter.pendingReports().first?.path == [2])
    }
}
