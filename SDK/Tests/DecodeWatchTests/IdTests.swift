import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatch

@Suite struct IdTests {
    @Test("Id decodes GitHub's node ids and encodes them back as strings")
    func roundTrip() throws {
        let issues = try gitHubDecoder().decode([GitHubIssue].self, from: Fixture.data("issues.json"))
        #expect(issues[0].nodeID.rawValue == "MDA6RW50aXR5MQ==")
        #expect(issues[0].user.nodeID == "MDA6RW50aXR5MQ==")
        #expect(try JSONEncoder().encode([issues[0].nodeID]) == Data(#"["MDA6RW50aXR5MQ=="]"#.utf8))
    }

    @Test("Id rejects an empty string with dataCorrupted at the field")
    func rejectsEmpty() throws {
        let data = try Fixture.edited("issues.json", [([0, "node_id"], "")])
        #expect {
            try gitHubDecoder().decode([GitHubIssue].self, from: data)
        } throws: { error in
            guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
            return context.codingPath.map(\.stringValue) == ["Index 0", "node_id"]
        }
        let reporter = TestReporter.make()
        _ = try gitHubDecoder().decode(
            [Safe<GitHubIssue>].self, from: data, endpoint: "GET /issues", reporter: reporter)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.kind == .dataCorrupted)
        #expect(report.path == [0, "node_id"])
    }

    @Test("Id rejects a number: ids are strings")
    func rejectsNumber() throws {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Id<Label>.self, from: Data("1000".utf8)) }
        #expect(Id<Label>(rawValue: "") == nil)
    }

    @Test("ids of different entities are different types")
    func phantom() {
        let issue: Id<GitHubIssue> = "abc"
        let label: Id<Label> = "abc"
        #expect(issue.rawValue == label.rawValue)
        #expect(type(of: issue) != type(of: label) as Any.Type)
    }
}
