import Foundation
import Testing

@testable import DecodeWatch

/// With `keyDecodingStrategy = .convertFromSnakeCase`, reports name the keys the backend sent.
@Suite struct KeyStrategyTests {
    struct Item: Decodable {
        let id: Int
        let createdAt: Int
        let htmlUrl: String
    }

    struct Profile: Decodable {
        let id: Int
        @Safe var lastSeenAt: Int?
    }

    static func snakeCaseDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    @Test("paths and snippets spell keys as the payload did: created_at, html_url")
    func pathsAndSnippets() throws {
        let reporter = TestReporter.make()
        let data = Data(#"[{"id": 1, "created_at": "soon", "html_url": "x"}, {"id": 2, "created_at": 5}]"#.utf8)
        let items = try Self.snakeCaseDecoder().decode(
            [Safe<Item>].self, from: data, endpoint: "GET /v2/items", reporter: reporter)
        #expect(items.map { $0.value?.id } == [nil, nil])
        let reports = reporter.pendingReports()
        let mistyped = try #require(reports.first { $0.kind == .typeMismatch })
        #expect(mistyped.path == [0, "created_at"])
        #expect(mistyped.snippet?.contains(#""html_url":"x""#) == true)
        #expect(mistyped.snippet?.contains("htmlUrl") == false)
        let missing = try #require(reports.first { $0.kind == .keyNotFound })
        #expect(missing.path == [1, "html_url"])
        #expect(reports.allSatisfy { $0.keyDecoding == .convertFromSnakeCase })
    }

    @Test("a Safe property's absent key is reported under its payload spelling")
    func safeProperty() throws {
        let reporter = TestReporter.make()
        let profile = try Self.snakeCaseDecoder().decode(
            Profile.self, from: Data(#"{"id": 7}"#.utf8), endpoint: "GET /v2/me", reporter: reporter)
        #expect(profile.id == 7 && profile.lastSeenAt == nil)
        #expect(reporter.pendingReports().map(\.path) == [["last_seen_at"]])
    }

    @Test(
        "Swift names go back to snake_case the way the decoder read them",
        arguments: [
            ("createdAt", "created_at"), ("htmlUrl", "html_url"), ("htmlURL", "html_url"), ("URLValue", "url_value"),
            ("id", "id"), ("_links", "_links"), ("version2Name", "version2_name"),
        ])
    func snakeCased(name: String, key: String) {
        #expect(JSONKeySpelling.snakeCased(name) == key)
    }

    @Test("with default keys nothing is respelled")
    func defaultKeys() throws {
        let reporter = TestReporter.make()
        let data = Data(#"[{"id": 1, "createdAt": "soon", "htmlUrl": "x"}]"#.utf8)
        _ = try JSONDecoder().decode([Safe<Item>].self, from: data, endpoint: "GET /v2/items", reporter: reporter)
        #expect(reporter.pendingReports().first?.path == [0, "createdAt"])
        #expect(reporter.pendingReports().first?.keyDecoding == .useDefaultKeys)
    }

    @Test("a custom strategy is reported as custom, its keys as the strategy produced them")
    func customStrategy() throws {
        let reporter = TestReporter.make()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in path.last! }
        _ = try decoder.decode(
            [Safe<Item>].self, from: Data(#"[{"id": 1}]"#.utf8), endpoint: "GET /v2/items", reporter: reporter)
        #expect(reporter.pendingReports().first?.keyDecoding == .custom)
    }

    @Test("key_decoding goes over the wire by its documented names, and an unknown one is refused by name")
    func wireNames() throws {
        let report = Report(
            occurredAt: Date(timeIntervalSince1970: 0), endpoint: "GET /v2/items", path: ["avatar_url"],
            kind: .keyNotFound, keyDecoding: .convertFromSnakeCase)
        let text = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(text.contains(#""key_decoding":"convert_from_snake_case""#))
        #expect(try JSONDecoder().decode(Report.self, from: Data(text.utf8)) == report)
        let unknown = text.replacingOccurrences(of: "convert_from_snake_case", with: "kebab")
        #expect {
            try JSONDecoder().decode(Report.self, from: Data(unknown.utf8))
        } throws: { error in
            "\(error)".contains("unknown key_decoding 'kebab'; expected one of use_default_keys")
        }
    }
}
