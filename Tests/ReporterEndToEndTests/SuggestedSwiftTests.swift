import DecodeWatch
import DecodeWatchContracts
import DecodeWatchCore
import Foundation
import Testing

/// The Swift a suggestion shows is code that compiles against the SDK and decodes the payload that broke.
///
/// Each case decodes a payload with the app's original model through the SDK, writes the suggestion from the report
/// the SDK made (judged against a contract where the case needs one), checks that its Swift is, character for
/// character, the code between the case's `suggestion:begin` and `suggestion:end` marks in this file, which the test
/// target compiles, and decodes the same payload with that code.
@Suite("Suggested Swift compiles and decodes the payload that broke")
struct SuggestedSwiftTests {
    static let app = "com.example.tests"
    static let endpoint = "GET /v2/posts"

    /// The models as the app had them before the fix.
    enum Before {
        struct Post: Decodable {
            let likes: Int
        }

        enum State: String, Decodable {
            case open, closed
        }

        struct Issue: Decodable {
            let state: State
        }

        struct Article: Decodable {
            let id: Int
            let title: String
        }

        struct Event: Decodable {
            let created_at: Date
        }

        struct Feed: Decodable {
            let tags: [String]
        }
    }

    /// The models with each suggestion applied, as it is written.
    enum Fixed {
        struct Post: Decodable {
            // suggestion:begin likes
            let likes: Either<Int, String>
            // read as Int: likes.left ?? likes.right.flatMap { Int($0) }
            // suggestion:end
        }

        struct Issue: Decodable {
            // suggestion:begin state
            enum State: String, SafeEnum {
                // the cases the app knows, then:
                case merged
                case unknown
            }
            let state: State
            // suggestion:end
        }

        struct ArticleKeepingTheError: Decodable {
            let id: Int
            // suggestion:begin title-required
            let title: Maybe<String>
            // suggestion:end
        }

        struct ArticleWithOptionalTitle: Decodable {
            let id: Int
            // suggestion:begin title-optional
            let title: String?
            // suggestion:end
        }

        static func eventDecoder() -> JSONDecoder {
            // suggestion:begin created-at
            // created_at: Date
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .custom { dateDecoder in
                let text = try dateDecoder.singleValueContainer().decode(String.self)
                return try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
            }
            // suggestion:end
            return decoder
        }

        struct Feed: Decodable {
            // suggestion:begin tags
            @SafeArray var tags: [String]
            // suggestion:end
        }
    }

    @Test("an Int sent as a string: Either<Int, String> decodes it, and the comment's reading gives the number")
    func stringForInt() throws {
        let json = #"{"likes":"12"}"#
        try Self.expectSuggestion(Before.Post.self, json, remedy: .either, swift: "likes")
        let likes = try JSONDecoder().decode(Fixed.Post.self, from: Data(json.utf8)).likes
        #expect(likes.left ?? likes.right.flatMap { Int($0) } == 12)
    }

    @Test("a value a plain enum does not know: the SafeEnum with the new case decodes it as that case")
    func newEnumCase() throws {
        let json = #"{"state":"merged"}"#
        try Self.expectSuggestion(Before.Issue.self, json, remedy: .safeEnum, swift: "state")
        #expect(try JSONDecoder().decode(Fixed.Issue.self, from: Data(json.utf8)).state == .merged)
    }

    @Test("a missing key the spec requires: Maybe keeps the object and the error, and the backend gets a report")
    func missingRequiredKey() throws {
        let json = #"{"id":7}"#
        let suggestion = try Self.expectSuggestion(
            Before.Article.self, json, contract: try Self.articles(titleRequired: true), remedy: .maybe,
            swift: "title-required")
        #expect(suggestion.backendReport?.contains("| Spec says | required · string |") == true)
        let article = try JSONDecoder().decode(Fixed.ArticleKeepingTheError.self, from: Data(json.utf8))
        #expect(article.id == 7)
        #expect(article.title.value == nil)
        guard case .keyNotFound? = article.title.error as? DecodingError else {
            Issue.record("expected keyNotFound, got \(String(describing: article.title.error))")
            return
        }
    }

    @Test("a missing key the spec makes optional: an optional decodes it as nil, and the backend gets no report")
    func missingOptionalKey() throws {
        let json = #"{"id":7}"#
        let suggestion = try Self.expectSuggestion(
            Before.Article.self, json, contract: try Self.articles(titleRequired: false), remedy: .optional,
            swift: "title-optional")
        #expect(suggestion.backendReport == nil)
        let article = try JSONDecoder().decode(Fixed.ArticleWithOptionalTitle.self, from: Data(json.utf8))
        #expect(article.id == 7 && article.title == nil)
    }

    @Test("ISO 8601 with fractional seconds and the default date strategy: the suggested strategy reads the date")
    func dateFormat() throws {
        // Not `.iso8601` as the model before: Apple's refuses fractional seconds, but Linux's takes and drops them.
        let json = #"{"created_at":"2026-11-21T10:00:00.125Z"}"#
        try Self.expectSuggestion(Before.Event.self, json, remedy: .dateStrategy, swift: "created-at")
        let event = try Fixed.eventDecoder().decode(Before.Event.self, from: Data(json.utf8))
        #expect(abs(event.created_at.timeIntervalSince1970 - 1_795_255_200.125) < 0.001)
    }

    @Test("one bad element of an array: SafeArray keeps the others")
    func badArrayElement() throws {
        let json = #"{"tags":["a",7,"c"]}"#
        try Self.expectSuggestion(Before.Feed.self, json, remedy: .safeArray, swift: "tags")
        #expect(try JSONDecoder().decode(Fixed.Feed.self, from: Data(json.utf8)).tags == ["a", "c"])
    }

    /// The suggestion for the report the SDK makes when `model` fails to decode `json`, judged against `contract`.
    /// ``suggestion(_:_:contract:)``, expected to be `remedy` with the Swift between the `name` marks of this file.
    @discardableResult
    static func expectSuggestion<Model: Decodable>(
        _ model: Model.Type, _ json: String, contract: ContractSpec? = nil, remedy: SuggestionRemedy,
        swift name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Suggestion {
        let suggestion = try suggestion(model, json, contract: contract)
        #expect(suggestion.remedy == remedy, sourceLocation: sourceLocation)
        #expect(suggestion.swift == (try compiled(name)), sourceLocation: sourceLocation)
        return suggestion
    }

    static func suggestion<Model: Decodable>(
        _ model: Model.Type, _ json: String, contract: ContractSpec? = nil
    ) throws -> Suggestion {
        let reporter = TestReporter.make()
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Model.self, from: Data(json.utf8), endpoint: endpoint, reporter: reporter)
        }
        let report = try #require(reporter.pendingReports().first)
        let path = PathRenderer.render(report.path)
        let field = FieldSummary(
            group: GroupKey(app: app, endpoint: report.endpoint, path: path, kind: report.kind).id, app: app,
            endpoint: report.endpoint, path: path, kind: report.kind, expected: report.expected, count: report.count,
            installs: 1, rate: nil, firstSeen: report.occurredAt, lastSeen: report.occurredAt,
            versions: ["1.0.0": report.count], status: .new,
            sample: Sample(snippet: report.snippet, message: report.message, type: report.type))
        var summary = FieldsSummary(since: report.occurredAt, until: report.occurredAt + 60, fields: [field])
        if let contract { summary = ContractSet([(app, "shop", contract)]).annotating(summary) }
        return try #require(summary.withSuggestions().fields.first?.suggestion)
    }

    /// A contract for `GET /v2/posts` answering an article whose `title` is a string, required or not, imported from
    /// OpenAPI as `decodewatch contracts import` does.
    static func articles(titleRequired: Bool) throws -> ContractSpec {
        let yaml = """
            openapi: 3.1.0
            info: { title: Shop, version: "1" }
            paths:
              /v2/posts:
                get:
                  responses:
                    "200":
                      description: An article.
                      content:
                        application/json:
                          schema:
                            type: object
                            required: [\(titleRequired ? "id, title" : "id")]
                            properties:
                              id: { type: integer }
                              title: { type: string }
            """
        return try OpenAPIContractReader.read(Data(yaml.utf8), source: "shop.yaml")
    }

    /// The lines between `// suggestion:begin NAME` and `// suggestion:end` in this file, without their indentation.
    static func compiled(_ name: String) throws -> String {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        func mark(_ text: String) -> (Substring) -> Bool { { $0.trimmingCharacters(in: .whitespaces) == text } }
        let begin = try #require(lines.firstIndex(where: mark("// suggestion:begin \(name)")))
        let end = try #require(lines[begin...].firstIndex(where: mark("// suggestion:end")))
        let block = lines[(begin + 1)..<end]
        let indent = block.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return block.map { String($0.dropFirst(indent)) }.joined(separator: "\n")
    }
}
