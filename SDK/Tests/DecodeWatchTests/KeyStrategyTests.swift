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
    }
}
