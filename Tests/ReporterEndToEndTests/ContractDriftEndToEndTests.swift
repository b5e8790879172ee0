import DecodeWatch
import DecodeWatchContracts
import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Contract drift on real material: GitHub API responses, mutated the ways backends break, decoded by the SDK
/// into a real collector, and judged against a hand-written excerpt of GitHub's OpenAPI description.
@Suite("Contract drift, end to end on GitHub fixtures")
struct ContractDriftEndToEndTests {
    static let app = "com.example.octo"

    /// Each mutation, the group it makes, and the verdict it must get.
    static let expected: [(endpoint: String, path: String, kind: ReportKind, verdict: DriftVerdict)] = [
        // `title` is required by the spec: the backend broke it.
        ("GET /repos/octo/shop/issues", "$[*].title", .keyNotFound, .backendViolatesSpec),
        // `comments` is an integer in the spec, and the app expects an Int: the backend sent a string.
        ("GET /repos/octo/shop/issues", "$[*].comments", .typeMismatch, .backendViolatesSpec),
        // `site_admin` is required in simple-user, reached through nullable-simple-user's allOf.
        ("GET /repos/octo/shop/issues", "$[*].user.site_admin", .keyNotFound, .backendViolatesSpec),
        // `user` is a nullable-simple-user: null is allowed, the app's non-optional user is too strict.
        ("GET /repos/octo/shop/issues", "$[*].user", .valueNotFound, .appStricterThanSpec),
        // FIRST_TIMER is in the spec's author-association enum: the app's enum lacks a case.
        ("GET /repos/octo/shop/issues", "$[*].author_association", .unknownValue, .appStricterThanSpec),
        // The spec's `state` is any string (no enum): the app's closed enum is stricter.
        ("GET /repos/octo/shop/issues", "$[*].state", .unknownValue, .appStricterThanSpec),
        // SPONSOR is not in the enum: the backend sent a value its spec does not allow.
        ("GET /search/issues", "$.items[*].author_association", .unknownValue, .backendViolatesSpec),
        // `color` of a label is a non-nullable string.
        ("GET /repos/octo/shop/labels", "$[*].color", .valueNotFound, .backendViolatesSpec),
        // Pull requests are not in the excerpt: the spec is incomplete.
        ("GET /repos/octo/shop/pulls", "$[*].comments", .keyNotFound, .notInSpec),
        // An empty node id is unusable to the app, but nothing in the spec forbids it: no guess.
        ("GET /repos/octo/shop/issues", "$[*].node_id", .dataCorrupted, .unknown),
    ]

    @Test("mutated GitHub responses get the verdict of the table, through GET /v1/drift and GET /v1/fields")
    func verdictsOfTheTable() async throws {
        let (folder, collector) = try EndToEndTests.freshCollector()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await collector.start()
        defer { Task { await collector.stop() } }

        let document = try Data(contentsOf: Fixture.directory.appendingPathComponent("github-openapi.yaml"))
        let spec = try OpenAPIContractReader.read(document, source: "github-openapi.yaml")
        try await collector.store.insertContract(
            ContractInfo(app: Self.app, name: "github", source: "github-openapi.yaml", spec: spec, at: Date(), by: nil),
            spec: spec)

        let reporter = Reporter(
            configuration: ReporterConfiguration(
                collectorURL: collector.url, app: AppInfo(id: Self.app, version: "2.5.0"), installID: "install-1",
                spoolDirectory: folder.appendingPathComponent("spool"),
                retry: ReporterConfiguration.RetryPolicy(maxAttemptsPerFlush: 1)))
        let decoder = gitHubDecoder()
        let issues = try Fixture.edited(
            "issues.json",
            [
                ([.index(1), .key("title")], nil),
                ([.index(2), .key("comments")], "7"),
                ([.index(3), .key("user")], NSNull()),
                ([.index(4), .key("author_association")], "FIRST_TIMER"),
                ([.index(5), .key("user"), .key("site_admin")], nil),
                ([.index(6), .key("state")], "merged"),
                ([.index(7), .key("node_id")], ""),
            ])
        _ = try decoder.decode(
            [Safe<GitHubIssue>].self, from: issues, endpoint: "GET /repos/octo/shop/issues", reporter: reporter)
        let search = try Fixture.edited(
            "search_issues.json", [([.key("items"), .index(0), .key("author_association")], "SPONSOR")])
        _ = try decoder.decode(
            SearchResult.self, from: search, endpoint: "GET /search/issues?q=bug", reporter: reporter)
        let labels = try Fixture.edited("labels.json", [([.index(0), .key("color")], NSNull())])
        _ = try decoder.decode(
            [Safe<Label>].self, from: labels, endpoint: "GET /repos/octo/shop/labels", reporter: reporter)
        _ = try decoder.decode(
            [Safe<GitHubIssue>].self, from: Fixture.data("pulls.json"), endpoint: "GET /repos/octo/shop/pulls",
            reporter: reporter)
        await reporter.flush()

        let report = try await Self.get(DriftReport.self, "/v1/drift?app=\(Self.app)", from: collector)
        var actual: [String: DriftEntry] = [:]
        for entry in report.entries { actual["\(entry.endpoint) \(entry.path) \(entry.kind.rawValue)"] = entry }
        for row in Self.expected {
            let entry = actual["\(row.endpoint) \(row.path) \(row.kind.rawValue)"]
            #expect(entry?.verdict == row.verdict, "\(row.endpoint) \(row.path): \(entry?.reason ?? "no entry")")
            #expect(entry?.versions == ["2.5.0": entry?.count ?? -1])
        }
        #expect(report.entries.count == Self.expected.count, "\(report.entries.map { "\($0.endpoint) \($0.path)" })")
        #expect(report.totals["backend_violates_spec"] == 5)

        let title = try #require(actual["GET /repos/octo/shop/issues $[*].title keyNotFound"])
        #expect(title.spec?.operation == "GET /repos/{owner}/{repo}/issues")
        #expect(title.spec?.location == "#/components/schemas/issue/properties/title")
        #expect(title.spec?.required == true && title.spec?.types == ["string"])
        #expect(title.rate == 1)

        let backendOnly = try await Self.get(
            DriftReport.self, "/v1/drift?app=\(Self.app)&verdict=backend_violates_spec", from: collector)
        #expect(backendOnly.entries.allSatisfy { $0.verdict == .backendViolatesSpec } && backendOnly.entries.count == 5)

        let fields = try await Self.get(FieldsSummary.self, "/v1/fields?app=\(Self.app)&limit=100", from: collector)
        #expect(fields.fields.allSatisfy { $0.drift != nil })
        #expect(fields.fields.first { $0.path == "$[*].title" }?.drift?.verdict == .backendViolatesSpec)
        await collector.stop()
    }

    static func get<T: Decodable>(_ type: T.Type, _ path: String, from collector: LiveCollector) async throws -> T {
        let url = try #require(URL(string: path, relativeTo: collector.url))
        let (data, response) = try await URLSession.shared.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
        return try JSONDecoder().decode(T.self, from: data)
    }
}
