import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatch

@Suite struct MaybeTests {
    struct IssueWithUser: Decodable {
        let number: Int
        let user: Maybe<GitHubUser>
    }

    @Test("Maybe keeps the value when it decodes")
    func keepsValue() throws {
        let issues = try JSONDecoder().decode([IssueWithUser].self, from: Fixture.data("issues.json"))
        #expect(issues[0].user.value?.login == "octokit-fixture-user-a")
        #expect(issues[0].user.error == nil)
        #expect(try issues[0].user.get().id == 1000)
    }

    @Test("Maybe keeps the real DecodingError and reports it")
    func keepsError() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([1, "user", "site_admin"], "no")])
        let issues = try JSONDecoder().decode(
            [IssueWithUser].self, from: data, endpoint: "GET /repos/o/r/issues", reporter: reporter)
        #expect(issues[1].user.value == nil)
        guard case .typeMismatch(let type, let context)? = issues[1].user.error as? DecodingError else {
            Issue.record("expected a typeMismatch, got \(String(describing: issues[1].user.error))")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Bool.self))
        #expect(context.codingPath.map(\.stringValue) == ["Index 1", "user", "site_admin"])
        #expect(throws: DecodingError.self) { try issues[1].user.get() }
        #expect(reporter.pendingReports().first?.path == [1, "user", "site_admin"])
    }

    @Test("Maybe keeps an absent key as a keyNotFound error and reports it")
    func absentKey() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([0, "user"], nil)])
        let issues = try JSONDecoder().decode(
            [IssueWithUser].self, from: data, endpoint: "GET /repos/o/r/issues", reporter: reporter)
        guard case .keyNotFound(let key, _)? = issues[0].user.error as? DecodingError else {
            Issue.record("expected keyNotFound")
            return
        }
        #expect(key.stringValue == "user")
        let report = try #require(reporter.pendingReports().first)
        #expect(report.path == [0, "user"])
        #expect(report.kind == .keyNotFound)
        #expect(report.expected == "GitHubUser")
    }

    @Test("Maybe encodes the value, or null when it failed")
    func encodes() throws {
        let values: [Maybe<String>] = [Maybe("a"), Maybe(error: CancellationError())]
        #expect(String(decoding: try JSONEncoder().encode(values), as: UTF8.self) == #"["a",null]"#)
    }
}
