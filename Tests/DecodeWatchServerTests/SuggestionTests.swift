import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// The fix for each breaking field, as a real collector serves it from real ingested reports: in `GET /v1/fields` and
/// on the group's page.
@Suite("Suggested fixes over HTTP")
struct SuggestionTests {
    /// A spec whose `likes` is a required integer: a string there breaks it.
    static let spec = ContractSpec(
        openapi: "3.1.0", title: "Shop", version: "1",
        operations: [
            ContractOperation(
                method: "GET", path: "/v2/posts",
                responses: [
                    ContractResponse(
                        status: "200",
                        schema: ContractSchema(
                            types: ["object"],
                            properties: [
                                "results": ContractSchema(
                                    types: ["array"],
                                    items: ContractSchema(
                                        types: ["object"], properties: ["likes": ContractSchema(types: ["integer"])],
                                        required: ["likes"]))
                            ]))
                ])
        ])

    /// `likes` sent as a string by the shop's backend, which has a contract, and `title` missing in the blog app,
    /// which has none.
    static func seed(_ collector: TestCollector) async throws {
        try await collector.store.insertContract(
            ContractInfo(app: "com.example.shop", name: "shop", source: "shop.yaml", spec: spec, at: Date(), by: nil),
            spec: spec)
        _ = try await collector.ingest(
            Batches.batch(
                reports: [
                    Batches.report(
                        endpoint: "GET /v2/posts", path: ["results", 3, "likes"], kind: "typeMismatch",
                        expected: "Int", count: 4, snippet: #"{"id":"pos_3","likes":"12"}"#)
                ]))
        _ = try await collector.ingest(
            Batches.batch(app: "com.example.blog", reports: [Batches.report(snippet: #"{"id":"pos_2"}"#)]))
    }

    static let likes = GroupKey(
        app: "com.example.shop", endpoint: "GET /v2/posts", path: "$.results[*].likes", kind: .typeMismatch
    ).id
    static let title = GroupKey(
        app: "com.example.blog", endpoint: "GET /v2/posts", path: "$.results[*].title", kind: .keyNotFound
    ).id

    @Test("GET /v1/fields gives every field its fix, and the backend report only where the backend breaks its spec")
    func inFields() async throws {
        try await TestCollector.run(seed: Self.seed) { collector in
            let fields = try await collector.fields().fields
            let likes = try #require(fields.first { $0.group == Self.likes }?.suggestion)
            #expect(likes.remedy == .either)
            #expect(likes.received == .string)
            #expect(likes.swift?.hasPrefix("let likes: Either<Int, String>\n") == true)
            let report = try #require(likes.backendReport)
            #expect(report.contains("| Field | `$.results[*].likes` |"))
            #expect(report.contains("| Spec says | required · integer |"))
            #expect(report.contains("| App versions | `5.2.0` (4) |"))
            #expect(report.contains("| Failures | 4 from 1 install between "))
            let title = try #require(fields.first { $0.group == Self.title }?.suggestion)
            #expect(title.remedy == .maybe)
            #expect(title.swift == "let title: Maybe<String>")
            #expect(title.backendReport == nil)

            // Raw JSON: a suggestion with no backend report writes it as null, not absent.
            let raw = try await collector.send("GET", "/v1/fields?app=com.example.blog")
            let entry = try #require((raw.json["fields"] as? [[String: Any]])?.first)
            let suggestion = try #require(entry["suggestion"] as? [String: Any])
            #expect(suggestion["backend_report"] is NSNull)
            #expect(suggestion["remedy"] as? String == "maybe")
        }
    }

    @Test("the group page shows the Swift in a code block and the backend report in a read-only text area")
    func onGroupPage() async throws {
        try await TestCollector.run(seed: Self.seed) { collector in
            let client = DashboardClient(collector.baseURL)
            let likes = try await client.send("GET", "/groups/\(Self.likes)").text
            #expect(likes.contains("data-remedy=\"either\""))
            #expect(likes.contains("<pre><code class=\"swift\">let likes: Either&lt;Int, String&gt;"))
            #expect(likes.contains("<textarea id=\"backend-report\" class=\"report\" readonly"))
            #expect(likes.contains("| Field | `$.results[*].likes` |"))
            let title = try await client.send("GET", "/groups/\(Self.title)").text
            #expect(title.contains("<pre><code class=\"swift\">let title: Maybe&lt;String&gt;</code></pre>"))
            #expect(!title.contains("<textarea"))
        }
    }
}
