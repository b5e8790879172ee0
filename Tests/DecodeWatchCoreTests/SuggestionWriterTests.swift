import Foundation
import Testing

@testable import DecodeWatchCore

/// The fix written for a breaking field: which SDK wrapper or strategy it picks from the kind, the sampled value's JSON
/// type and the contract verdict, and when the backend team gets a report.
@Suite("Suggestion writer")
struct SuggestionWriterTests {
    /// The verdict a field may carry: none when its app has no contract.
    enum Verdict: CaseIterable, CustomTestStringConvertible {
        case none, backendViolatesSpec, appStricterThanSpec, notInSpec, unknown

        var drift: DriftVerdict? {
            switch self {
            case .none: return nil
            case .backendViolatesSpec: return .backendViolatesSpec
            case .appStricterThanSpec: return .appStricterThanSpec
            case .notInSpec: return .notInSpec
            case .unknown: return .unknown
            }
        }

        var testDescription: String { drift?.rawValue ?? "no contract" }
    }

    /// A value of each JSON type at `likes`, as the snippet of the object around it; no snippet for absent.
    static let samples: [SampledJSONType: String] = [
        .null: #"{"id":1,"likes":null}"#, .boolean: #"{"id":1,"likes":true}"#, .number: #"{"id":1,"likes":12.5}"#,
        .string: #"{"id":1,"likes":"12"}"#, .array: #"{"id":1,"likes":[1]}"#, .object: #"{"id":1,"likes":{"n":1}}"#,
    ]

    /// The type the app expects for each kind, as the SDK reports it.
    static let expected: [ReportKind: String] = [
        .keyNotFound: "Int", .valueNotFound: "Int", .typeMismatch: "Int", .dataCorrupted: "Int",
        .unknownValue: "LikeLevel", .other: "Int8",
    ]

    /// The remedy for a kind and sampled type, with the verdict deciding between optional and `Maybe` for what is
    /// missing: the spec allows it (app stricter), or not.
    static func remedy(_ kind: ReportKind, _ type: SampledJSONType, _ verdict: Verdict) -> SuggestionRemedy {
        let missing: SuggestionRemedy = verdict == .appStricterThanSpec ? .optional : .maybe
        switch (kind, type) {
        case (.keyNotFound, _), (.valueNotFound, _), (.typeMismatch, .null): return missing
        case (.unknownValue, _): return .safeEnum
        case (.typeMismatch, .boolean), (.typeMismatch, .string): return .either
        case (.typeMismatch, .number), (.dataCorrupted, .number), (.other, .number): return .widerNumber
        default: return .safe
        }
    }

    static func field(
        path: String = "$.posts[*].likes", kind: ReportKind, expected: String?, snippet: String?,
        message: String? = nil, verdict: DriftVerdict? = nil, spec: SpecView? = nil, keyDecoding: KeyDecoding? = nil
    ) -> FieldSummary {
        FieldSummary(
            group: "9f2c4a1be07d3c55e1a0f3b2c4d5e6f7", app: "com.example.shop", endpoint: "GET /v2/posts", path: path,
            kind: kind, expected: expected, count: 42, installs: 17, rate: 0.031,
            firstSeen: Date(timeIntervalSince1970: 1_763_539_201), lastSeen: Date(timeIntervalSince1970: 1_763_719_198),
            versions: ["5.1.0": 2, "5.2.0": 40], status: .new,
            sample: Sample(snippet: snippet, message: message, type: "Feed", keyDecoding: keyDecoding),
            drift: verdict.map {
                DriftJudgement(
                    verdict: $0, reason: "The spec says so.",
                    spec: spec ?? SpecView(contract: "shop", operation: "GET /posts", status: "200", types: ["integer"])
                )
            })
    }

    static func write(_ field: FieldSummary) -> Suggestion {
        SuggestionWriter.suggestion(
            for: field, since: Date(timeIntervalSince1970: 1_763_632_800),
            until: Date(timeIntervalSince1970: 1_763_719_200))
    }

    /// Every kind × sampled JSON type × verdict.
    static let cases: [(ReportKind, SampledJSONType, Verdict)] = ReportKind.allCases.flatMap { kind in
        SampledJSONType.allCases.flatMap { type in Verdict.allCases.map { (kind, type, $0) } }
    }

    @Test(
        "every kind, sampled JSON type and verdict gets its wrapper, and a backend report exactly when the backend breaks its spec",
        arguments: cases)
    func table(kind: ReportKind, type: SampledJSONType, verdict: Verdict) throws {
        let field = Self.field(
            kind: kind, expected: Self.expected[kind], snippet: Self.samples[type], verdict: verdict.drift)
        let suggestion = Self.write(field)
        let received: SampledJSONType = kind == .keyNotFound ? .absent : type
        #expect(suggestion.received == received)
        #expect(suggestion.remedy == Self.remedy(kind, received, verdict))
        #expect((suggestion.backendReport != nil) == (verdict == .backendViolatesSpec))
        #expect(suggestion.summary.hasPrefix("$.posts[*].likes "))
        #expect(suggestion.summary.hasSuffix("."))
        let swift = try #require(suggestion.swift)
        let declaration: String
        switch suggestion.remedy {
        case .either: declaration = "let likes: Either<Int, \(type == .string ? "String" : "Bool")>"
        case .optional: declaration = "let likes: Int?"
        case .maybe: declaration = "let likes: Maybe<Int>"
        case .widerNumber: declaration = "let likes: Double"
        case .safe: declaration = "@Safe var likes: \(Self.expected[kind]!)?"
        case .safeEnum: declaration = "let likes: LikeLevel"
        default: declaration = "(not in this table)"
        }
        #expect(swift.split(separator: "\n").contains { $0 == declaration }, "\(swift)")
    }

    @Test(
        "a date's format is recognized from the sample and gets the decoder strategy that reads it",
        arguments: [
            (#""2026-11-21T10:00:00Z""#, ".iso8601"),
            (#""2026-11-21T10:00:00+01:00""#, ".iso8601"),
            (#""2026-11-21T10:00:00.123Z""#, "Date.ISO8601FormatStyle(includingFractionalSeconds: true)"),
            ("1763719200", ".secondsSince1970"),
            ("1763719200123", ".millisecondsSince1970"),
            (#""2026-11-21""#, #"formatter.dateFormat = "yyyy-MM-dd""#),
            (#""2026-11-21 10:00:00""#, #"formatter.dateFormat = "yyyy-MM-dd HH:mm:ss""#),
            (#""Sat, 21 Nov 2026 10:00:00 GMT""#, #"formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz""#),
        ])
    func dateFormats(snippet: String, strategy: String) throws {
        let suggestion = Self.write(
            Self.field(path: "$.created_at", kind: .dataCorrupted, expected: "Date", snippet: snippet))
        #expect(suggestion.remedy == .dateStrategy)
        let swift = try #require(suggestion.swift)
        #expect(swift.contains(strategy), "\(swift)")
        #expect(swift.hasPrefix("// created_at: Date\nlet "))
    }

    @Test("a date string where Double was expected (the default date strategy) gets a date strategy too")
    func dateAsDouble() {
        let suggestion = Self.write(
            Self.field(
                path: "$.created_at", kind: .typeMismatch, expected: "Double", snippet: #""2026-11-21T10:00:00Z""#))
        #expect(suggestion.remedy == .dateStrategy)
        #expect(suggestion.swift?.contains("decoder.dateDecodingStrategy = .iso8601") == true)
    }

    @Test("a date in a format nobody names stays a Date, wrapped in Safe")
    func unknownDateFormat() {
        let suggestion = Self.write(
            Self.field(path: "$.created_at", kind: .dataCorrupted, expected: "Date", snippet: #""next tuesday""#))
        #expect(suggestion.remedy == .safe)
        #expect(suggestion.swift == "@Safe var created_at: Date?")
    }

    @Test("a plain enum's own error becomes a SafeEnum with the new case, unless the spec does not list the value")
    func plainEnum() throws {
        let message = "Cannot initialize IssueState from invalid String value FIRST_TIMER"
        let stricter = Self.write(
            Self.field(
                path: "$[*].state", kind: .dataCorrupted, expected: nil, snippet: #"{"state":"FIRST_TIMER"}"#,
                message: message, verdict: .appStricterThanSpec))
        #expect(stricter.remedy == .safeEnum)
        #expect(
            stricter.swift == """
                enum IssueState: String, SafeEnum {
                    // the cases the app knows, then:
                    case firstTimer = "FIRST_TIMER"
                    case unknown
                }
                let state: IssueState
                """)
        let broken = Self.write(
            Self.field(
                path: "$[*].state", kind: .dataCorrupted, expected: nil, snippet: #"{"state":"FIRST_TIMER"}"#,
                message: message, verdict: .backendViolatesSpec))
        #expect(broken.swift?.contains("FIRST_TIMER") == false)
        #expect(broken.swift?.contains("case unknown") == true)
        #expect(broken.backendReport != nil)
    }

    @Test("an integer enum value gets an integer case")
    func integerEnum() {
        let suggestion = Self.write(
            Self.field(path: "$.level", kind: .unknownValue, expected: "Level", snippet: "7"))
        #expect(suggestion.swift?.hasPrefix("enum Level: Int, SafeEnum {") == true)
        #expect(suggestion.swift?.contains("    case value7 = 7\n") == true)
    }

    @Test("a bad array element keeps the other elements with SafeArray, named after the array's key")
    func arrayElement() {
        let suggestion = Self.write(
            Self.field(path: "$.feed.tags[*]", kind: .typeMismatch, expected: "String", snippet: #"["a",7]"#))
        #expect(suggestion.remedy == .safeArray)
        #expect(suggestion.swift == "@SafeArray var tags: [String]")
        let nested = Self.write(
            Self.field(path: "$.grid[*][*]", kind: .dataCorrupted, expected: "Cell", snippet: "{}"))
        #expect(nested.swift == "@SafeArray var grid: [[Cell]]")
    }

    @Test("a bad element of a top-level array decodes the response as a SafeArray")
    func rootArrayElement() {
        let suggestion = Self.write(Self.field(path: "$[*]", kind: .typeMismatch, expected: "Post", snippet: "7"))
        #expect(suggestion.remedy == .safeArray)
        #expect(suggestion.swift?.contains("SafeArray<Post>.self, from: data, endpoint: \"GET /v2/posts\"") == true)
    }

    @Test("the whole response failing has no property to change and no Swift")
    func wholeResponse() {
        let suggestion = Self.write(
            Self.field(path: "$", kind: .dataCorrupted, expected: "Feed", snippet: #""<html>""#))
        #expect(suggestion.remedy == .none)
        #expect(suggestion.swift == nil)
    }

    @Test("a key Swift cannot name gets a camel-case property and its CodingKeys line")
    func renamedKey() {
        let suggestion = Self.write(
            Self.field(path: "$['like-count']", kind: .typeMismatch, expected: "Int", snippet: #""12""#))
        #expect(
            suggestion.swift == """
                // JSON key "like-count": in CodingKeys, case likeCount = "like-count"
                let likeCount: Either<Int, String>
                // read as Int: likeCount.left ?? likeCount.right.flatMap { Int($0) }
                """)
        let keyword = Self.write(Self.field(path: "$.default", kind: .keyNotFound, expected: "Bool", snippet: "{}"))
        #expect(keyword.swift == "let `default`: Maybe<Bool>")
    }

    @Test(
        "the property is named as the app's decoder names it: the key itself, or its convertFromSnakeCase name",
        arguments: [
            (KeyDecoding?.none, "avatar_url", "let avatar_url: Maybe<URL>"),
            (.useDefaultKeys, "avatar_url", "let avatar_url: Maybe<URL>"),
            (.custom, "avatar_url", "let avatar_url: Maybe<URL>"),
            (.convertFromSnakeCase, "avatar_url", "let avatarUrl: Maybe<URL>"),
            (.convertFromSnakeCase, "html_URL", "let htmlUrl: Maybe<URL>"),
            (.convertFromSnakeCase, "_links_self", "let _linksSelf: Maybe<URL>"),
            (.convertFromSnakeCase, "url", "let url: Maybe<URL>"),
            (
                .convertFromSnakeCase, "2fa_url",
                "// JSON key \"2fa_url\", which convertFromSnakeCase reads as \"2faUrl\": in CodingKeys, "
                    + "case _2faUrl = \"2faUrl\"\nlet _2faUrl: Maybe<URL>"
            ),
        ])
    func propertyAsTheAppSpellsIt(keyDecoding: KeyDecoding?, key: String, swift: String) {
        let suggestion = Self.write(
            Self.field(
                path: "$.user['\(key)']", kind: .keyNotFound, expected: "URL", snippet: "{}", keyDecoding: keyDecoding))
        #expect(suggestion.swift == swift)
    }

    @Test(
        "convertFromSnakeCase names are Foundation's own",
        arguments: [
            "avatar_url", "html_URL", "_private_id", "trailing__", "a__b", "node_id2", "ALL_CAPS", "plain",
            "camelCase", "2fa_enabled", "x_y_z_", "über_größe", "_", "",
        ])
    func snakeCaseConversionMatchesFoundation(key: String) throws {
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        struct Keys: Decodable {
            let names: [String]
            init(from decoder: any Decoder) throws {
                names = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            }
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let json = try JSONSerialization.data(withJSONObject: [key: 1])
        let decoded = try decoder.decode(Keys.self, from: json).names
        #expect(decoded == [SwiftNames.fromSnakeCase(key)])
    }

    @Test("a missing key with no reported type takes it from the spec")
    func typeFromSpec() {
        let suggestion = Self.write(
            Self.field(
                path: "$.title", kind: .keyNotFound, expected: nil, snippet: "{}", verdict: .backendViolatesSpec,
                spec: SpecView(contract: "shop", required: true, types: ["string"])))
        #expect(suggestion.swift == "let title: Maybe<String>")
        let unknown = Self.write(Self.field(path: "$.title", kind: .keyNotFound, expected: nil, snippet: "{}"))
        #expect(unknown.swift == "let title: Maybe<<#Type#>>")
    }

    @Test("the backend report names the field, endpoint, spec, sample, first seen, versions and counts")
    func backendReport() throws {
        let suggestion = Self.write(
            Self.field(
                kind: .typeMismatch, expected: "Int", snippet: #"{"id":1,"likes":"12"}"#,
                message: "Expected to decode Int but found a string instead.", verdict: .backendViolatesSpec,
                spec: SpecView(
                    contract: "shop", operation: "GET /posts", status: "200",
                    location: "#/components/schemas/Post/properties/likes", required: true, types: ["integer"])))
        let report = try #require(suggestion.backendReport)
        #expect(report.hasPrefix("### GET /v2/posts: $.posts[*].likes breaks the API spec\n\nThe spec says so.\n"))
        for row in [
            "| Field | `$.posts[*].likes` |", "| Endpoint | `GET /v2/posts` |",
            "| Spec | `shop`, operation `GET /posts` (200), `#/components/schemas/Post/properties/likes` |",
            "| Spec says | required · integer |", "| Received | string |", "| App expects | `Int` |",
            "| Failure | `typeMismatch`: Expected to decode Int but found a string instead. |",
            "| First seen | 2025-11-19T08:00:01Z |", "| Last seen | 2025-11-21T09:59:58Z |",
            "| App versions | `5.2.0` (40), `5.1.0` (2) |",
            "| Failures | 42 from 17 installs between 2025-11-20T10:00:00Z and 2025-11-21T10:00:00Z, 3.10 % of decodes of the endpoint |",
            "```json\n{\"id\":1,\"likes\":\"12\"}\n```",
        ] {
            #expect(report.contains(row), "\(row)\n\(report)")
        }
        #expect(suggestion.summary.hasSuffix("; the backend breaks its spec here, so also send it the report."))
    }

    @Test("backticks and pipes in a sample cannot break the report's Markdown")
    func hostileSample() throws {
        let suggestion = Self.write(
            Self.field(
                path: "$.note", kind: .typeMismatch, expected: "Int", snippet: "\"```|`\"", message: "a | b\nc",
                verdict: .backendViolatesSpec))
        let report = try #require(suggestion.backendReport)
        #expect(report.contains("````json\n\"```|`\"\n````"))
        #expect(report.contains("| Failure | `typeMismatch`: a \\| b c |"))
    }

    @Test(
        "without a snippet, Swift's type-mismatch message still tells the type received",
        arguments: [
            ("Expected to decode String but found a number instead.", SampledJSONType.number, "Either<String, Double>"),
            ("Expected to decode Int but found a string instead.", .string, "Either<Int, String>"),
            ("Expected to decode Bool but found number instead.", .number, "Either<Bool, Double>"),
            ("Expected to decode String but found a dictionary instead.", .object, "@Safe var color: String?"),
            ("Something else went wrong.", .absent, "@Safe var color: String?"),
        ])
    func typeFromMessage(message: String, received: SampledJSONType, swift: String) {
        let expected = String(message.dropFirst("Expected to decode ".count).prefix { $0 != " " })
        let suggestion = Self.write(
            Self.field(
                path: "$[*].color", kind: .typeMismatch, expected: message.hasPrefix("Expected") ? expected : "String",
                snippet: nil, message: message))
        #expect(suggestion.received == received)
        #expect(suggestion.swift?.contains(swift) == true, "\(suggestion.swift ?? "nil")")
    }

    @Test("the JSON names are snake_case, with swift and backend_report null when there is none")
    func json() throws {
        let suggestion = Suggestion(
            summary: "$ failed.", remedy: .none, received: .string, swift: nil, backendReport: nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(suggestion), as: UTF8.self)
        #expect(
            text == #"{"backend_report":null,"received":"string","remedy":"none","summary":"$ failed.","swift":null}"#)
        #expect(try JSONDecoder().decode(Suggestion.self, from: Data(text.utf8)) == suggestion)
    }

    @Test("withSuggestions writes one for every field of a summary, with the summary's window in the report")
    func summary() throws {
        let field = Self.field(kind: .keyNotFound, expected: "Int", snippet: "{}", verdict: .backendViolatesSpec)
        let since = Date(timeIntervalSince1970: 1_763_000_000)
        let written = FieldsSummary(since: since, until: since + 3600, fields: [field, field]).withSuggestions()
        #expect(written.fields.allSatisfy { $0.suggestion?.remedy == .maybe })
        #expect(written.fields[0].suggestion?.backendReport?.contains("between 2025-11-13T02:13:20Z and") == true)
    }
}
