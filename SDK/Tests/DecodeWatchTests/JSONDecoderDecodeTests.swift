import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatch

@Suite struct JSONDecoderDecodeTests {
    @Test("a failure of the whole payload is reported with the object around it, then rethrown")
    func rootFailure() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("search_issues.json", [(["total_count"], nil)])
        #expect(throws: DecodingError.self) {
            try gitHubDecoder().decode(
                SearchResult.self, from: data, endpoint: "GET /search/issues", reporter: reporter)
        }
        let report = try #require(reporter.pendingReports().first)
        #expect(report.path == ["total_count"])
        #expect(report.kind == .keyNotFound)
        #expect(report.type == "SearchResult")
        #expect(report.snippet?.hasPrefix(#"{"incomplete_results":false"#) == true)
    }

    @Test("a body that is not JSON is reported as dataCorrupted at the root")
    func notJSON() throws {
        let reporter = TestReporter.make()
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(
                [Label].self, from: Data("<html>502</html>".utf8), endpoint: "GET /l", reporter: reporter)
        }
        let report = try #require(reporter.pendingReports().first)
        #expect(report.path == [])
        #expect(report.kind == .dataCorrupted)
        #expect(report.snippet == #""<html>502</html>""#)
    }

    @Test("every decode is counted per normalized endpoint, failed or not")
    func countsDecodes() throws {
        let reporter = TestReporter.make()
        let good = try Fixture.data("labels.json")
        for page in 1...3 {
            _ = try JSONDecoder().decode(
                [Label].self, from: good, endpoint: "get /repos/o/r/labels?page=\(page)", reporter: reporter)
        }
        _ = try? JSONDecoder().decode(
            [Label].self, from: Data("{}".utf8), endpoint: "GET /repos/o/r/labels", reporter: reporter)
        _ = try JSONDecoder().decode([Label].self, from: good, endpoint: "GET /repos/o/r/labels/42", reporter: reporter)
        #expect(
            reporter.pendingDecodes() == [
                DecodeCount(endpoint: "GET /repos/o/r/labels", count: 4),
                DecodeCount(endpoint: "GET /repos/o/r/labels/{id}", count: 1),
            ])
    }

    @Test("a sample rate of zero records neither failures nor decodes")
    func sampledOut() throws {
        let reporter = TestReporter.make { $0.sampleRate = 0 }
        let data = try Fixture.edited("issues.json", [([0, "title"], nil)])
        let issues = try gitHubDecoder().decode(
            [Safe<GitHubIssue>].self, from: data, endpoint: "GET /i", reporter: reporter)
        #expect(issues.compactMap(\.value).count == 12)
        #expect(reporter.pendingReports().isEmpty && reporter.pendingDecodes().isEmpty)
    }

    @Test("the kill switch stops capture and counting at run time")
    func killSwitch() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([0, "title"], nil)])
        reporter.setEnabled(false)
        _ = try gitHubDecoder().decode([Safe<GitHubIssue>].self, from: data, endpoint: "GET /i", reporter: reporter)
        #expect(reporter.pendingReports().isEmpty && reporter.pendingDecodes().isEmpty)
        reporter.setEnabled(true)
        _ = try gitHubDecoder().decode([Safe<GitHubIssue>].self, from: data, endpoint: "GET /i", reporter: reporter)
        #expect(reporter.pendingReports().count == 1 && reporter.pendingDecodes().count == 1)
    }

    @Test("concurrent decodes of different endpoints each report their own endpoint")
    func concurrentContexts() async throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([0, "title"], nil)])
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    _ = try? gitHubDecoder().decode(
                        [Safe<GitHubIssue>].self, from: data, endpoint: "GET /e\(index % 2)", reporter: reporter)
                }
            }
        }
        let reports = reporter.pendingReports().sorted { $0.endpoint < $1.endpoint }
        #expect(reports.map(\.endpoint) == ["GET /e0", "GET /e1"])
        #expect(reports.map(\.count) == [10, 10])
    }
}
