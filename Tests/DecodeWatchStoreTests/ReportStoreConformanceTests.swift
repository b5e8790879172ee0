import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// The behaviour every ReportStore backend must have. Each backend adds itself to `backends`.
@Suite("ReportStore conformance")
struct ReportStoreConformanceTests {
    /// Makes a fresh, empty store and a cleanup.
    typealias Backend = @Sendable () throws -> (any ReportStore, @Sendable () -> Void)

    static let backends: [String: Backend] = [
        "sqlite": {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = try SQLiteReportStore(path: folder.appendingPathComponent("s.sqlite").path)
            return (store, { try? FileManager.default.removeItem(at: folder) })
        }
    ]

    static let received = RFC3339.date(from: "2026-11-21T10:00:00Z")!
    static let window = FieldsQuery(
        since: RFC3339.date(from: "2026-11-21T00:00:00Z")!, until: RFC3339.date(from: "2026-11-22T00:00:00Z")!)

    static func aggregate(
        id: String = UUID().uuidString, install: String = "i1", version: String = "1.0",
        at time: String = "2026-11-21T09:00:00Z",
        count: Int = 1, snippet: String = "{}"
    ) throws -> BatchAggregate {
        let json = """
            {"batch_id":"\(id)","app":{"id":"app","version":"\(version)"},"install_id":"\(install)",
             "reports":[{"occurred_at":"\(time)","endpoint":"GET /v2/posts","path":["results",0,"title"],
                         "kind":"keyNotFound","count":\(count),"snippet":\(String(reflecting: snippet))}]}
            """
        return BatchAggregate(
            try BatchValidator().validate(Data(json.utf8), receivedAt: received), redactor: Redactor())
    }

    @Test("concurrent writers stay exact", arguments: Array(backends.keys))
    func concurrentWritersStayExact(backend: String) async throws {
        let (store, cleanup) = try Self.backends[backend]!()
        defer { cleanup() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for batch in 0..<25 {
                        _ = try await store.ingest(try Self.aggregate(install: "i\(writer)", count: batch % 3 + 1))
                    }
                }
            }
            try await group.waitForAll()
        }
        let field = try #require(try await store.fields(Self.window).fields.first)
        #expect(field.count == 8 * (9 * 1 + 8 * 2 + 8 * 3))
        #expect(field.installs == 8)
    }

    @Test("a batch id is stored once per app", arguments: Array(backends.keys))
    func idempotentBatches(backend: String) async throws {
        let (store, cleanup) = try Self.backends[backend]!()
        defer { cleanup() }
        let batch = try Self.aggregate(id: "same", count: 5)
        #expect(try await store.ingest(batch) == .stored)
        #expect(try await store.ingest(batch) == .duplicate)
        #expect(try await store.fields(Self.window).fields.first?.count == 5)
    }

    @Test("the sample is the latest report's, and first/last seen span all batches", arguments: Array(backends.keys))
    func samplesAndSeen(backend: String) async throws {
        let (store, cleanup) = try Self.backends[backend]!()
        defer { cleanup() }
        _ = try await store.ingest(try Self.aggregate(at: "2026-11-21T09:30:00Z", snippet: #"{"late":1}"#))
        _ = try await store.ingest(try Self.aggregate(at: "2026-11-21T08:00:00Z", snippet: #"{"early":1}"#))
        let field = try #require(try await store.fields(Self.window).fields.first)
        #expect(field.sample.snippet == #"{"late":1}"#)
        #expect(field.firstSeen == RFC3339.date(from: "2026-11-21T08:00:00Z"))
        #expect(field.lastSeen == RFC3339.date(from: "2026-11-21T09:30:00Z"))
    }

    @Test(
        "resolve, then a later report regresses the group with its version; an older one does not",
        arguments: Array(backends.keys))
    func lifecycle(backend: String) async throws {
        let (store, cleanup) = try Self.backends[backend]!()
        defer { cleanup() }
        _ = try await store.ingest(try Self.aggregate(at: "2026-11-21T08:00:00Z"))
        let group = try #require(try await store.fields(Self.window).fields.first?.group)
        try await store.resolve(group: group, at: RFC3339.date(from: "2026-11-21T09:00:00Z")!)
        _ = try await store.ingest(try Self.aggregate(at: "2026-11-21T08:30:00Z"))
        #expect(try await store.fields(Self.window).fields.first?.status == .resolved)
        _ = try await store.ingest(try Self.aggregate(version: "2.0", at: "2026-11-21T09:30:00Z"))
        #expect(try await store.fields(Self.window).fields.first?.status == .regressed)
        await #expect(throws: StoreError.self) { try await store.resolve(group: "ffffffffffffffff", at: Date()) }
    }
}
