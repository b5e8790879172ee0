import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatch

@Suite struct FoldingTests {
    @Test("identical failures fold into one report with a count")
    func folds() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([1, "title"], nil)])
        for _ in 0..<5 {
            _ = try gitHubDecoder().decode(
                [Safe<GitHubIssue>].self, from: data, endpoint: "GET /issues?page=1", reporter: reporter)
        }
        let reports = reporter.pendingReports()
        #expect(reports.count == 1)
        #expect(reports.first?.count == 5)
        #expect(reporter.statistics.recordedFailures == 5)
    }

    @Test("failures differing in field, kind or endpoint stay apart")
    func keepsApart() throws {
        let reporter = TestReporter.make()
        let missing = try Fixture.edited("issues.json", [([1, "title"], nil)])
        let mistyped = try Fixture.edited("issues.json", [([1, "title"], 1)])
        let other = try Fixture.edited("issues.json", [([1, "body"], 1)])
        for (data, endpoint) in [(missing, "GET /a"), (mistyped, "GET /a"), (other, "GET /a"), (missing, "GET /b")] {
            _ = try gitHubDecoder().decode([Safe<GitHubIssue>].self, from: data, endpoint: endpoint, reporter: reporter)
        }
        #expect(reporter.pendingReports().count == 4)
        #expect(reporter.pendingReports().allSatisfy { $0.count == 1 })
    }

    @Test("a field broken in every element of a 10,000-element list is one report with count 10,000")
    func foldsAcrossElements() throws {
        struct Post: Decodable {
            let id: Int
            let title: String
        }
        let reporter = TestReporter.make { $0.maxBufferedReports = 10 }
        let items = (0..<10_000).map { #"{"id": \#($0)}"# }.joined(separator: ",")
        let posts = try JSONDecoder().decode(
            [Safe<Post>].self, from: Data("[\(items)]".utf8), endpoint: "GET /v2/posts", reporter: reporter)
        #expect(posts.allSatisfy { $0.value == nil })
        let reports = reporter.pendingReports()
        #expect(reports.count == 1)
        #expect(reports.first?.count == 10_000)
        #expect(reports.first?.path == [0, "title"])  // the first element's path; the collector groups on [*]
        #expect(reporter.statistics.recordedFailures == 10_000)
        #expect(reporter.statistics.droppedReports == 0)
    }

    @Test("a full buffer drops new distinct reports, counts them, and still folds known ones")
    func boundedBuffer() {
        var buffer = ReportBuffer(capacity: 2)
        func report(_ key: String) -> Report {
            Report(occurredAt: Date(), endpoint: "GET /x", path: [.key(key)], kind: .keyNotFound)
        }
        let outcomes = ["a", "b", "c", "a"].map { buffer.insert(report($0)) }
        #expect(outcomes == [.added, .added, .dropped, .folded])
        let foldedKnown = buffer.fold(FoldKey(report("b")))
        let foldedUnknown = buffer.fold(FoldKey(report("c")))
        #expect(foldedKnown && !foldedUnknown)
        let drained = buffer.drain()
        #expect(drained.reports.map(\.count) == [2, 2])
        #expect(buffer.isEmpty)
    }

    @Test("the reporter counts what its buffer dropped")
    func reporterCountsDrops() {
        let reporter = TestReporter.make { (configuration: inout ReporterConfiguration) in
            configuration.maxBufferedReports = 1
            configuration.maxReportsPerBatch = 1000
        }
        for key in ["a", "b", "c"] {
            reporter.record(Report(occurredAt: Date(), endpoint: "GET /x", path: [.key(key)], kind: .typeMismatch))
        }
        #expect(reporter.pendingReports().count == 1)
        #expect(reporter.statistics.droppedReports == 2)
    }
}
