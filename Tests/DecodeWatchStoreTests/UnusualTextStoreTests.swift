import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchStoreSQLite
import Foundation
import Testing

/// Every string field of a batch holding unusual code points is stored and read back byte for byte, on every store
/// and in both SQLite modes; text only canonically equivalent is kept apart, as the databases keep it apart.
@Suite("Unusual text in stores")
struct UnusualTextStoreTests {
    /// How a store is written to.
    enum Mode: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, sqliteLogged, postgres
        var testDescription: String {
            ["sqlite": "SQLite", "sqliteLogged": "SQLite, acknowledged from its log", "postgres": "PostgreSQL"][
                rawValue]!
        }
    }

    /// Code points that a careless path loses: the last BMP noncharacter, noncharacters, 4-byte forms, the last
    /// code point, right-to-left text and marks, combining marks, joiners, the byte order mark, line separators.
    static let samples: [String] = [
        text(0xFFFF), text(0xFDD0, 0xFDEF), text(0x1FFFE), "😀", text(0x10FFFF), "\u{200F}שלום\u{200E}", "\u{202E}abc",
        "e\u{301}\u{302}", "👩‍👩‍👧", "\u{FEFF}", "a\u{2028}b", "\u{7F}",
    ]

    /// Text of these code points (Swift refuses noncharacters in a literal).
    static func text(_ codePoints: UInt32...) -> String {
        String(String.UnicodeScalarView(codePoints.map { Unicode.Scalar($0)! }))
    }

    @Test("each unusual code point in each string field is stored and read back exactly", arguments: Mode.allCases)
    func storedExactly(mode: Mode) async throws {
        try await Self.withStore(mode) { store in
            for (index, sample) in Self.samples.enumerated() {
                let app = "com.example.\(index)\(sample)"
                let body = Self.body(
                    batch: "batch-\(sample)", app: app, version: "5.\(sample)", endpoint: "GET /v2/\(sample)/posts",
                    path: ["results", sample, 0], type: "Post\(sample)", expected: "String\(sample)",
                    message: "No value \(sample).", snippet: #"{"title":"\#(sample)"}"#)
                #expect(try await Self.ingest(body, into: store) == .stored)
                let fields = try await store.store.fields(Self.window).fields.filter {
                    $0.app.utf8.elementsEqual(app.utf8)
                }
                let field = try #require(fields.first, "\(sample.unicodeScalars.map(\.value))")
                #expect(fields.count == 1)
                #expect(field.count == 2)
                #expect(field.endpoint.utf8.elementsEqual("GET /v2/\(sample)/posts".utf8))
                #expect(field.path.utf8.elementsEqual("$.results['\(sample)'][*]".utf8), "\(field.path)")
                #expect(field.expected.map { Array($0.utf8) } == Array("String\(sample)".utf8))
                #expect(field.versions.keys.map { Array($0.utf8) } == [Array("5.\(sample)".utf8)])
                #expect(field.sample.message.map { Array($0.utf8) } == Array("No value \(sample).".utf8))
                #expect(field.sample.type.map { Array($0.utf8) } == Array("Post\(sample)".utf8))
                #expect(field.sample.snippet.map { Array($0.utf8) } == Array(#"{"title":"\#(sample)"}"#.utf8))
            }
        }
    }

    @Test(
        "keys, batch ids and versions only canonically equivalent are stored apart, each counted once",
        arguments: Mode.allCases)
    func canonicalEquivalentsKeptApart(mode: Mode) async throws {
        // U+00E9 and e + U+0301 are equal as Swift strings, not as bytes.
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        try await Self.withStore(mode) { store in
            for (spelling, count) in [(composed, 3), (decomposed, 5)] {
                let body = Self.body(
                    batch: "batch-\(spelling)", app: "com.example.shop", version: spelling,
                    endpoint: "GET /v2/posts", path: [spelling], type: nil, expected: nil, message: nil, snippet: nil,
                    count: count)
                #expect(try await Self.ingest(body, into: store) == .stored)
            }
            let fields = try await store.store.fields(Self.window).fields
            #expect(fields.count == 2)
            let counts = Dictionary(uniqueKeysWithValues: fields.map { (Array($0.path.utf8), $0.count) })
            #expect(counts[Array("$['\(composed)']".utf8)] == 6, "\(fields.map(\.path))")
            #expect(counts[Array("$['\(decomposed)']".utf8)] == 10, "\(fields.map(\.path))")
            // A re-send of the second is a duplicate of itself, not of the first.
            let again = Self.body(
                batch: "batch-\(decomposed)", app: "com.example.shop", version: decomposed, endpoint: "GET /v2/posts",
                path: [decomposed], type: nil, expected: nil, message: nil, snippet: nil, count: 5)
            #expect(try await Self.ingest(again, into: store) == .duplicate)
            #expect(try await store.store.fields(Self.window).fields.map(\.count).reduce(0, +) == 16)
        }
    }

    static let window = FieldsQuery(since: date("2026-11-21T00:00:00Z"), until: date("2026-11-22T00:00:00Z"))

    /// A batch of two reports, `count` each, with every string field given.
    static func body(
        batch: String, app: String, version: String, endpoint: String, path: [Any], type: String?, expected: String?,
        message: String?, snippet: String?, count: Int = 1
    ) -> Data {
        var report: [String: Any] = [
            "occurred_at": "2026-11-21T09:00:00Z", "endpoint": endpoint, "path": path, "kind": "typeMismatch",
            "count": count,
        ]
        report["type"] = type
        report["expected"] = expected
        report["message"] = message
        report["snippet"] = snippet
        return try! JSONSerialization.data(withJSONObject: [
            "batch_id": batch, "app": ["id": app, "version": version, "build": version, "platform": version],
            "install_id": "install-\(batch)", "sdk": ["name": version, "version": version],
            "decodes": [["endpoint": endpoint, "count": 10]], "reports": [report, report],
        ])
    }

    /// Validates and aggregates a body as the collector does, then commits it with its body as received.
    static func ingest(_ body: Data, into store: OpenedStore) async throws -> IngestOutcome {
        let validated = try BatchValidator().validate(body, receivedAt: date("2026-11-21T09:00:30Z"))
        #expect(validated.rejected.isEmpty, "\(validated.rejected)")
        #expect(validated.warnings.isEmpty, "\(validated.warnings)")
        let batch = ReceivedBatch(
            BatchAggregate(validated, redactor: Redactor()), source: BatchSource(body: body, encoding: .identity))
        return try await store.sink.commit(batch)
    }

    /// Runs `body` on a fresh store written to as `mode` says.
    static func withStore(_ mode: Mode, _ body: (OpenedStore) async throws -> Void) async throws {
        switch mode {
        case .sqlite: try await StoreBackend.sqlite.withFreshDatabase { try await body($0.opened) }
        case .postgres: try await StoreBackend.postgres.withFreshDatabase { try await body($0.opened) }
        case .sqliteLogged:
            try await AcknowledgedBatch.withFolder { path in
                try await body(try OpenedStore(try SQLiteReportStore(path: path), mode: .logged))
            }
        }
    }
}
