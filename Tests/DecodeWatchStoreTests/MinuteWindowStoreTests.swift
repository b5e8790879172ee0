import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// docs/api.md#windows: windows `[since, until)` are exact to the minute for recent data, on every backend.
@Suite("Windows exact to the minute")
struct MinuteWindowStoreTests {
    /// The start of the hour three hours ago: recent, and every offset below stays in the past.
    static let base = Hour.start(of: Hour.index(of: Date()) - 3)

    static func at(_ minutes: Int) -> Date { base.addingTimeInterval(TimeInterval(minutes * 60)) }

    /// Four batches at :05, :40, 1:20 and 2:10 past `base`, with decodes in the first two.
    static func seed(_ fixture: StoreFixture) async throws {
        let posts = "GET /v2/posts"
        try await fixture.send(
            1, at: RFC3339.string(from: at(5)), expected: "String", version: "5.1.0", install: "i1",
            decodes: [posts: 100])
        try await fixture.send(
            2, at: RFC3339.string(from: at(40)), expected: "Int", version: "5.2.0", install: "i2",
            decodes: [posts: 1000])
        try await fixture.send(4, at: RFC3339.string(from: at(80)), expected: "Int", version: "5.3.0", install: "i3")
        try await fixture.send(8, at: RFC3339.string(from: at(130)), version: "5.3.0", install: "i4")
    }

    static func window(_ from: Int, _ to: Int) -> FieldsQuery { FieldsQuery(since: at(from), until: at(to)) }

    @Test(
        "a window from :30 to 1:30 counts the reports inside it, with their installs, versions, expected and rate",
        arguments: StoreBackend.allCases)
    func midHourWindow(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase(seed: Self.seed) { fixture in
            let field = try #require(try await fixture.store.fields(Self.window(30, 90)).fields.first)
            #expect(field.count == 6)
            #expect(field.installs == 2)
            #expect(field.versions == ["5.2.0": 2, "5.3.0": 4])
            #expect(field.expected == "Int")
            #expect(field.rate == 6.0 / 1000)  // only the decodes sent at :40 are inside
        }
    }

    @Test(
        "edges are exact to the minute: since is included, until excluded, gaps count nothing",
        arguments: StoreBackend.allCases)
    func edges(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase(seed: Self.seed) { (fixture: StoreFixture) async throws in
            func count(_ from: Int, _ to: Int) async throws -> Int {
                try await fixture.store.fields(Self.window(from, to)).fields.first?.count ?? 0
            }
            #expect(try await count(40, 41) == 2)
            #expect(try await count(39, 40) == 0)
            #expect(try await count(41, 79) == 0)
            #expect(try await count(0, 120) == 7)  // whole hours only
            #expect(try await count(5, 135) == 15)  // partial hours on both sides of a whole one
            #expect(try await count(6, 130) == 6)
        }
    }

    @Test(
        "groups failing only at an edge, only in whole hours, or in both rank together by their window counts",
        arguments: StoreBackend.allCases)
    func rankingAcrossBuckets(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            // The window :30 to 2:15 is the minutes :30–:59, the whole hour 1:00–1:59, and the minutes 2:00–2:14.
            func send(_ count: Int, _ minute: Int, _ path: String, app: String = "com.example.shop") async throws {
                try await fixture.send(count, at: RFC3339.string(from: Self.at(minute)), path: [path], app: app)
            }
            try await send(3, 45, "startEdgeOnly")
            try await send(5, 90, "wholeHourOnly")
            try await send(2, 50, "bothEdges")
            try await send(4, 125, "bothEdges")
            try await send(1, 70, "partlyOutside")
            try await send(7, 140, "partlyOutside")
            try await send(8, 20, "outside")
            try await send(9, 100, "otherApp", app: "com.example.other")

            func ranking(_ query: FieldsQuery) async throws -> [String] {
                try await fixture.store.fields(query).fields.map { "\($0.path) \($0.count)" }
            }
            var query = Self.window(30, 135)
            #expect(
                try await ranking(query) == [
                    "$.otherApp 9", "$.bothEdges 6", "$.wholeHourOnly 5", "$.startEdgeOnly 3", "$.partlyOutside 1",
                ])
            query.limit = 2
            #expect(try await ranking(query) == ["$.otherApp 9", "$.bothEdges 6"])
            query.app = "com.example.shop"
            #expect(try await ranking(query) == ["$.bothEdges 6", "$.wholeHourOnly 5"])
            // Minutes only, inside one hour: no hourly rows are read.
            #expect(try await ranking(Self.window(40, 55)) == ["$.startEdgeOnly 3", "$.bothEdges 2"])
            // Whole hours only.
            #expect(
                try await ranking(Self.window(60, 120)) == ["$.otherApp 9", "$.wholeHourOnly 5", "$.partlyOutside 1"])
        }
    }

    @Test(
        "an edge older than the minutes kept widens to its whole hour, as docs/choices.md states",
        arguments: StoreBackend.allCases)
    func oldEdgesWiden(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            let old = Hour.start(of: Hour.index(of: Date().addingTimeInterval(-10 * 86_400)))
            try await fixture.send(3, at: RFC3339.string(from: old.addingTimeInterval(5 * 60)))
            let since = old.addingTimeInterval(30 * 60)
            let summary = try await fixture.store.fields(
                FieldsQuery(since: since, until: since.addingTimeInterval(600)))
            #expect(summary.fields.first?.count == 3)
        }
    }

    @Test(
        "retention drops per-minute counts past their horizon and keeps the hourly ones",
        arguments: StoreBackend.allCases)
    func minuteRetention(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase(seed: Self.seed) { fixture in
            // Minutes before 1:00 go; hours stay (the hourly horizon is far back).
            while try await fixture.store.deleteExpired(
                before: .distantPast, minutesBefore: Self.at(60), limit: 2) > 0
            {}
            #expect(try await fixture.store.fields(Self.window(0, 180)).fields.first?.count == 15)
            #expect(try await fixture.store.fields(Self.window(60, 90)).fields.first?.count == 4)
        }
    }
}
