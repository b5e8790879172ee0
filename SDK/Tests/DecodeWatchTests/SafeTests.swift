import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatch

@Suite struct SafeTests {
    let endpoint = "GET /repos/octokit-fixture-org/paginate-issues/issues"

    @Test("an array of Safe keeps the good issues of a real GitHub page and drops the broken one")
    func keepsGoodElements() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([1, "title"], nil)])
        let issues = try gitHubDecoder().decode(
            [Safe<GitHubIssue>].self, from: data, endpoint: endpoint, reporter: reporter)
        #expect(issues.count == 13)
        #expect(issues.compactMap(\.value).count == 12)
        #expect(issues[1].value == nil)
        #expect(issues[2].value?.title == "Test issue 11")
    }

    @Test("a missing key is reported with the key as the last path element")
    func missingKey() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([1, "title"], nil)])
        _ = try gitHubDecoder().decode([Safe<GitHubIssue>].self, from: data, endpoint: endpoint, reporter: reporter)
        let report = try #require(reporter.pendingReports().first)
        #expect(reporter.pendingReports().count == 1)
        #expect(report.path == [1, "title"])
        #expect(report.kind == .keyNotFound)
        #expect(report.expected == nil)  // the error does not say what type `title` has
        #expect(report.endpoint == endpoint)
        #expect(report.type == "Array<Safe<GitHubIssue>>")
        #expect(report.message?.contains("title") == true)
        let snippet = try #require(report.snippet)
        #expect(snippet.contains(#""number":12"#))
        #expect(!snippet.contains(#""title""#))
    }

    @Test("a string that became a number is a typeMismatch expecting String, at the field")
    func typeMismatch() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([2, "title"], 42)])
        _ = try gitHubDecoder().decode([Safe<GitHubIssue>].self, from: data, endpoint: endpoint, reporter: reporter)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.path == [2, "title"])
        #expect(report.kind == .typeMismatch)
        #expect(report.expected == "String")
    }

    @Test("a null in a required nested field is a valueNotFound with the full nested path")
    func valueNotFoundNested() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([0, "user", "login"], NSNull())])
        _ = try gitHubDecoder().decode([Safe<GitHubIssue>].self, from: data, endpoint: endpoint, reporter: reporter)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.path == [0, "user", "login"])
        #expect(report.kind == .valueNotFound)
        #expect(report.expected == "String")
    }

    @Test("a number that does not fit is dataCorrupted at the wrapper's position, as Foundation says at the top")
    func numberThatDoesNotFit() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([3, "comments"], 42.5)])
        let issues = try gitHubDecoder().decode(
            [Safe<GitHubIssue>].self, from: data, endpoint: endpoint, reporter: reporter)
        #expect(issues[3].value == nil)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.kind == .dataCorrupted)
        #expect(report.path.starts(with: [3]))
        #expect(report.expected == "GitHubIssue" || report.path != [3])

        // The same value breaking the whole payload is what Foundation calls dataCorrupted.
        #expect(throws: DecodingError.self) { try gitHubDecoder().decode([GitHubIssue].self, from: data) }
        do {
            _ = try gitHubDecoder().decode([GitHubIssue].self, from: data)
        } catch DecodingError.dataCorrupted {
        } catch {
            Issue.record("expected dataCorrupted at the top level, got \(error)")
        }
    }

    @Test("a number that does not fit is dataCorrupted at any depth, in a Safe property too")
    func numberThatDoesNotFitNested() throws {
        struct Counts: Decodable { @Safe var comments: Int? }
        struct Wrapper: Decodable { let counts: [Counts] }
        let reporter = TestReporter.make()
        let data = Data(#"{"counts": [{"comments": 1}, {"comments": 42.5}]}"#.utf8)
        let wrapper = try JSONDecoder().decode(Wrapper.self, from: data, endpoint: endpoint, reporter: reporter)
        #expect(wrapper.counts.map(\.comments) == [1, nil])
        let report = try #require(reporter.pendingReports().first)
        #expect(report.kind == .dataCorrupted)
        #expect(report.path == ["counts", 1, "comments"])
        #expect(report.expected == "Int")
    }

    @Test("an ISO 8601 date error whose path lacks the field is reported at the Safe property's position")
    func iso8601PathFallsBackToPosition() throws {
        struct Dated: Decodable {
            let number: Int
            @Safe var createdAt: Date?
            enum CodingKeys: String, CodingKey {
                case number
                case createdAt = "created_at"
            }
        }
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([4, "created_at"], "yesterday")])
        let issues = try gitHubDecoder().decode([Dated].self, from: data, endpoint: endpoint, reporter: reporter)
        #expect(issues[4].createdAt == nil)
        #expect(issues[3].createdAt != nil)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.path == [4, "created_at"])
        #expect(report.kind == .dataCorrupted)
        #expect(report.expected == "Date")
    }

    @Test("a Safe property reports an absent key and a null with the wrapped type as expected")
    func safePropertyAbsentAndNull() throws {
        struct Summary: Decodable {
            let number: Int
            @Safe var title: String?
        }
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([0, "title"], nil), ([1, "title"], NSNull())])
        let summaries = try JSONDecoder().decode([Summary].self, from: data, endpoint: endpoint, reporter: reporter)
        #expect(summaries.count == 13)
        #expect(summaries[0].title == nil && summaries[1].title == nil)
        #expect(summaries[2].title == "Test issue 11")
        let reports = reporter.pendingReports()
        #expect(reports.count == 2)
        #expect(reports[0].path == [0, "title"] && reports[0].kind == .keyNotFound && reports[0].expected == "String")
        #expect(
            reports[1].path == [1, "title"] && reports[1].kind == .valueNotFound && reports[1].expected == "String")
        #expect(reports[0].snippet?.contains(#""number":13"#) == true)
    }

    @Test("a Safe of an optional type treats absent and null as normal")
    func safeOptionalIsQuiet() throws {
        struct Summary: Decodable {
            @Safe var body: String??
            @Safe var milestone: Int??
        }
        let reporter = TestReporter.make()
        let summaries = try JSONDecoder().decode(
            [Summary].self, from: try Fixture.data("issues.json"), endpoint: endpoint, reporter: reporter)
        #expect(summaries.count == 13)
        #expect(reporter.pendingReports().isEmpty)
    }

    @Test("the snippet is redacted before it is buffered")
    func snippetIsRedacted() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited(
            "issues.json",
            [
                ([0, "title"], nil), ([0, "user", "email"], "octocat@example.com"),
                ([0, "body"], "call 4111 1111 1111 1111"),
            ])
        _ = try gitHubDecoder().decode([Safe<GitHubIssue>].self, from: data, endpoint: endpoint, reporter: reporter)
        let snippet = try #require(reporter.pendingReports().first?.snippet)
        #expect(!snippet.contains("octocat@example.com"))
        #expect(!snippet.contains("4111 1111"))
        #expect(snippet.contains(#""email":"<redacted>""#))
        #expect(snippet.contains("octokit-fixture-user-a"))
    }

    @Test("a snippet of a large element is cut to 2 KiB")
    func snippetIsBounded() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited(
            "issues.json", [([0, "title"], nil), ([0, "body"], String(repeating: "é long body ", count: 1000))])
        _ = try gitHubDecoder().decode([Safe<GitHubIssue>].self, from: data, endpoint: endpoint, reporter: reporter)
        let snippet = try #require(reporter.pendingReports().first?.snippet)
        #expect(snippet.utf8.count <= 2048)
        #expect(snippet.utf8.count > 2000)
        #expect(snippet.hasPrefix("{"))
    }

    @Test("without a context a Safe still decodes leniently and reports nothing")
    func noContext() throws {
        let data = try Fixture.edited("issues.json", [([1, "title"], nil)])
        let issues = try gitHubDecoder().decode([Safe<GitHubIssue>].self, from: data)
        #expect(issues.compactMap(\.value).count == 12)
    }

    @Test("a context set by hand in userInfo is used")
    func userInfoContext() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([5, "number"], "five")])
        let decoder = gitHubDecoder().watching("GET /repos/o/r/issues?page=2", reporter, root: [Safe<GitHubIssue>].self)
        _ = try decoder.decode([Safe<GitHubIssue>].self, from: data)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.endpoint == "GET /repos/o/r/issues")
        #expect(report.path == [5, "number"])
        #expect(report.expected == "Int")
        #expect(report.type == "Array<Safe<GitHubIssue>>")
    }

    @Test("a Safe property's absent key is reported through a context set by hand in userInfo")
    func userInfoContextMissingKey() throws {
        struct Summary: Decodable {
            let number: Int
            @Safe var title: String?
        }
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([3, "title"], nil)])
        let decoder = JSONDecoder().watching("GET /repos/o/r/issues", reporter)
        let summaries = try decoder.decode([Summary].self, from: data)
        #expect(summaries[3].title == nil)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.path == [3, "title"])
        #expect(report.type == "String")  // no root type given: the wrapped type
    }

    @Test("Safe encodes its value, or null")
    func encodes() throws {
        let values = [Safe(wrappedValue: 1), Safe(wrappedValue: nil)]
        #expect(String(decoding: try JSONEncoder().encode(values), as: UTF8.self) == "[1,null]")
    }
}
