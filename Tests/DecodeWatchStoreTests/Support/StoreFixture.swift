import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchStorePostgres
import Foundation
import Metrics
import Testing

/// A fresh database of one backend and the stores a test opens on it.
final class StoreFixture: Sendable {
    let database: FreshDatabase
    /// The store the test uses, and the sink its batches go to.
    let opened: OpenedStore
    private let pools = RunningPools()

    /// Whether batches are acknowledged from the store's log, or after their rollups.
    let mode: StoreMode

    /// The store the test uses.
    var store: any CollectorStore { opened.store }
    /// Where the test's batches go, as the collector's group commit sends them (``StoreMode``).
    var sink: any BatchSink { opened.sink }

    init(database: FreshDatabase, mode: StoreMode = .direct) async throws {
        self.database = database
        self.mode = mode
        let (store, pool) = try database.open()
        if let pool { await pools.run(pool) }
        opened = try OpenedStore(store, mode: mode)
        // PostgreSQL migrates on first use; tests that write rows directly need the tables first.
        try await store.checkReadiness()
    }

    /// Another store on the same database, with its own connections and sink, like a second process.
    func reopen() async throws -> OpenedStore {
        let (store, pool) = try database.open()
        if let pool { await pools.run(pool) }
        return try OpenedStore(store, mode: mode)
    }

    /// Returns once every batch acknowledged so far is in the rollups, for a test that then writes rows itself.
    func settle() async throws {
        try await sink.settle()
    }

    /// Stops every PostgreSQL pool, as graceful shutdown would.
    func stopPools() async {
        await pools.stop()
    }

    /// Ingests one batch through the real validator and folding: one report, or one per path of `paths`.
    /// - Parameters:
    ///   - count: each report's `count`.
    ///   - time: its `occurred_at`; the batch is received 30 seconds later.
    ///   - environment: the batch's `environment`; none (so `production`) when `nil`.
    ///   - os: the batch's `app.os`; none when `nil`.
    /// - Returns: what the store did.
    @discardableResult
    func send(
        _ count: Int = 1, at time: String = "2026-11-21T09:00:00Z", path: [Any] = ["results", 0, "title"],
        paths: [[Any]]? = nil,
        endpoint: String = "GET /v2/posts", kind: String = "keyNotFound", expected: String? = "String",
        version: String? = "5.2.0", install: String? = "install-1", app: String = "com.example.shop",
        snippet: String? = nil, batchID: String = UUID().uuidString, decodes: [String: Int] = [:],
        environment: String? = nil, os: String? = nil, to target: OpenedStore? = nil
    ) async throws -> IngestOutcome {
        let batch = try Self.batch(
            count, at: time, path: path, paths: paths, endpoint: endpoint, kind: kind, expected: expected,
            version: version, install: install, app: app, snippet: snippet, batchID: batchID, decodes: decodes,
            environment: environment, os: os)
        return try await (target ?? opened).sink.commit(batch)
    }

    /// A batch aggregated through the real validator, with its body, as `send` builds it before committing it.
    static func batch(
        _ count: Int = 1, at time: String = "2026-11-21T09:00:00Z", path: [Any] = ["results", 0, "title"],
        paths: [[Any]]? = nil,
        endpoint: String = "GET /v2/posts", kind: String = "keyNotFound", expected: String? = "String",
        version: String? = "5.2.0", install: String? = "install-1", app: String = "com.example.shop",
        snippet: String? = nil, batchID: String = UUID().uuidString, decodes: [String: Int] = [:],
        environment: String? = nil, os: String? = nil
    ) throws -> ReceivedBatch {
        let reports = (paths ?? [path]).map { path in
            var report: [String: Any] = [
                "occurred_at": time, "endpoint": endpoint, "path": path, "kind": kind, "count": count,
            ]
            report["expected"] = expected
            report["snippet"] = snippet
            return report
        }
        var app: [String: Any] = ["id": app]
        app["version"] = version
        app["os"] = os
        var body: [String: Any] = [
            "batch_id": batchID, "app": app, "reports": reports,
            "decodes": decodes.map { ["endpoint": $0.key, "count": $0.value] },
        ]
        body["install_id"] = install
        body["environment"] = environment
        let data = try JSONSerialization.data(withJSONObject: body)
        let batch = try BatchValidator().validate(data, receivedAt: RFC3339.date(from: time)!.addingTimeInterval(30))
        return ReceivedBatch(
            BatchAggregate(batch, redactor: Redactor()), source: BatchSource(body: data, encoding: .identity))
    }

    /// The id of the only group on a path, found through the fields summary.
    func group(path: String) async throws -> String {
        let summary = try await store.fields(
            FieldsQuery(since: date("2026-01-01T00:00:00Z"), until: date("2027-01-01T00:00:00Z")))
        return try #require(summary.fields.first { $0.path == path }?.group)
    }
}

/// A store a test opened, and the sink its batches go to: the store's direct writes, or its log.
struct OpenedStore: Sendable {
    let store: any CollectorStore
    let sink: any BatchSink

    init(_ store: any CollectorStore, mode: StoreMode) throws {
        self.store = store
        switch mode {
        case .direct: sink = DirectBatchSink(store: store)
        case .logged: sink = try store.loggedSink(pipeline: IngestPipeline(), metrics: NOOPMetricsHandler.instance)
        }
    }
}

extension BatchSink {
    /// Commits one batch alone.
    func commit(_ batch: ReceivedBatch) async throws -> IngestOutcome {
        try await commit([batch])[0]
    }
}

/// The PostgreSQL pools of a test's stores, each run in a task until the test ends.
private actor RunningPools {
    private var tasks: [Task<Void, any Error>] = []

    func run(_ pool: PostgresReportStore) {
        tasks.append(Task { try await pool.run() })
    }

    func stop() async {
        for task in tasks {
            task.cancel()
            _ = await task.result
        }
        tasks = []
    }
}

/// A time from RFC 3339 text.
func date(_ text: String) -> Date { RFC3339.date(from: text)! }
