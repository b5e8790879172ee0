import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// The breaking-fields summary as storage computes it (docs/api.md#breaking-fields), on every backend.
@Suite("Fields summary from storage")
struct SummaryStoreTests {
    static let window = ReportStoreConformanceTests.window

    @Test("reports group by normalized endpoint and path; counts add report counts", arguments: StoreBackend.allCases)
    func groupsAndCounts(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(1, path: ["results", 1, "title"], endpoint: "GET /v2/posts?page=2")
            try await fixture.send(5, path: ["results", 7, "title"], endpoint: "get https://api.example.com/v2/posts/")
            try await fixture.send(
                1, path: ["users", "8231", "e-mail"], endpoint: "GET /v2/users/42/posts", kind: "typeMismatch")
            let fields = try await fixture.store.fields(Self.window).fields
            #expect(fields.map(\.count) == [6, 1])
            #expect(fields.map(\.endpoint) == ["GET /v2/posts", "GET /v2/users/{id}/posts"])
            #expect(fields.map(\.path) == ["$.results[*].title", "$.users[*]['e-mail']"])
            #expect(fields.map(\.kind) == [.keyNotFound, .typeMismatch])
            #expect(
                fields.first?.group
                    == GroupKey(
                        app: "com.example.shop", endpoint: "GET /v2/posts", path: "$.results[*].title",
                        kind: .keyNotFound
                    ).id)
        }
    }

    @Test("installs, versions, rate and expected are computed over the window", arguments: StoreBackend.allCases)
    func numbers(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            let decodes = ["GET /v2/posts?page=1": 100]
            try await fixture.send(3, version: "5.2.0", install: "a", decodes: decodes)
            try await fixture.send(1, expected: "Int", version: "5.2.0", install: "b", decodes: decodes)
            try await fixture.send(4, version: "5.1.0", install: "a", decodes: decodes)
            try await fixture.send(1, version: nil, install: nil)
            // Outside the window: counted nowhere.
            try await fixture.send(50, at: "2026-11-20T09:00:00Z", version: "4.0.0", install: "z", decodes: decodes)
            let field = try #require(try await fixture.store.fields(Self.window).fields.first)
            #expect(field.count == 9)
            #expect(field.installs == 2)
            #expect(field.versions == ["5.2.0": 4, "5.1.0": 4, "unknown": 1])
            #expect(field.expected == "String")
            #expect(field.rate == 9.0 / 300.0)
        }
    }

    @Test(
        "rate is nil without decodes for the endpoint; expected is nil without expected types",
        arguments: StoreBackend.allCases)
    func nils(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(expected: nil, decodes: ["GET /v2/other": 10])
            let field = try #require(try await fixture.store.fields(Self.window).fields.first)
            #expect(field.rate == nil)
            #expect(field.expected == nil)
            #expect(field.installs == 1)
        }
    }

    @Test("each group's rate divides by the decodes of its own app and endpoint", arguments: StoreBackend.allCases)
    func ratePerAppAndEndpoint(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(2, path: ["a"], decodes: ["GET /v2/posts": 100, "GET /v2/feed": 40])
            try await fixture.send(3, path: ["b"], endpoint: "GET /v2/feed")
            try await fixture.send(1, path: ["c"], app: "com.example.blog", decodes: ["GET /v2/posts": 10])
            let fields = try await fixture.store.fields(Self.window).fields
            let rates = Dictionary(uniqueKeysWithValues: fields.map { ("\($0.app) \($0.endpoint)", $0.rate) })
            let expected: [String: Double?] = [
                "com.example.shop GET /v2/posts": 2.0 / 100, "com.example.shop GET /v2/feed": 3.0 / 40,
                "com.example.blog GET /v2/posts": 1.0 / 10,
            ]
            #expect(rates == expected)
        }
    }

    @Test("hour-aligned windows are exact: since inclusive, until exclusive", arguments: StoreBackend.allCases)
    func exactHourWindows(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(at: "2026-11-20T10:00:00Z", path: ["a"])
            try await fixture.send(at: "2026-11-20T10:59:59.999Z", path: ["b"])
            try await fixture.send(at: "2026-11-20T11:00:00Z", path: ["c"])
            try await fixture.send(at: "2026-11-20T09:59:59.999Z", path: ["d"])
            let query = FieldsQuery(since: date("2026-11-20T10:00:00Z"), until: date("2026-11-20T11:00:00Z"))
            #expect(try await fixture.store.fields(query).fields.map(\.path).sorted() == ["$.a", "$.b"])
        }
    }

    @Test("filters by app, endpoint and kind; sorts by count then group; limits", arguments: StoreBackend.allCases)
    func filtersAndOrder(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(2, path: ["a"])
            try await fixture.send(2, path: ["b"])
            try await fixture.send(9, path: ["c"], endpoint: "GET /v2/posts/17", kind: "typeMismatch")
            try await fixture.send(50, app: "com.example.other")
            let all = try await fixture.store.fields(Self.window).fields
            #expect(all.map(\.count) == [50, 9, 2, 2])
            #expect(all[2].group < all[3].group)
            var query = Self.window
            query.app = "com.example.shop"
            #expect(try await fixture.store.fields(query).fields.count == 3)
            query.endpoint = "GET /v2/posts/{id}"
            #expect(try await fixture.store.fields(query).fields.map(\.path) == ["$.c"])
            query = Self.window
            query.kind = .typeMismatch
            #expect(try await fixture.store.fields(query).fields.map(\.count) == [9])
            query = Self.window
            query.limit = 1
            #expect(try await fixture.store.fields(query).fields.map(\.count) == [50])
            query.app = "com.example.none"
            #expect(try await fixture.store.fields(query).fields.isEmpty)
        }
    }

    @Test(
        "a limited page holds the groups with the most failures and breaks ties by id, though each part of the groups is summed apart",
        arguments: StoreBackend.allCases)
    func pageAcrossParts(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            // Counts 1, 1, 2, 2, …, 12, 12: groups written one after another fall in different parts, so each
            // tie spans two parts.
            for index in 0..<24 { try await fixture.send(1 + index / 2, path: ["field\(index)"]) }
            let all = try await fixture.store.fields(Self.window).fields
            #expect(all.count == 24)
            for (a, b) in zip(all, all.dropFirst()) {
                #expect(a.count > b.count || (a.count == b.count && a.group < b.group))
            }
            var query = Self.window
            query.limit = 7
            let page = try await fixture.store.fields(query).fields
            #expect(page.map(\.count) == [12, 12, 11, 11, 10, 10, 9])
            #expect(page.map(\.group) == all.prefix(7).map(\.group))
        }
    }

    @Test(
        "status is new when first seen inside the window and ongoing when before it", arguments: StoreBackend.allCases)
    func newAndOngoing(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(at: "2026-11-19T09:00:00Z")
            try await fixture.send(at: "2026-11-21T09:00:00Z")
            #expect(try await fixture.store.fields(Self.window).fields.first?.status == .ongoing)
            let wide = FieldsQuery(since: date("2026-11-18T00:00:00Z"), until: Self.window.until)
            #expect(try await fixture.store.fields(wide).fields.first?.status == .new)
            #expect(try await fixture.store.fields(wide).fields.first?.count == 2)
        }
    }
}
