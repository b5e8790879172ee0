import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchStorePostgres
import Foundation
import PostgresNIO
import Testing

/// PostgreSQL replicas share one log of acknowledged batches: a replica that runs keeps the batches it logged,
/// however long they wait to be folded, and another claims them only once it stopped, or once an append failed
/// and the replica no longer knows all it logged.
@Suite("PostgreSQL: which replica folds a logged batch")
struct ReplicaPresenceTests {
    @Test(
        "a running replica's logged batches are not claimed by another, even past the orphan age; once it stops they are, each once"
    )
    func runningReplicaKeepsItsBatches() async throws {
        try await Self.withFirstReplica { fixture, admin, first, running in
            let batches = try [AcknowledgedBatch.make(count: 2, path: "title"), AcknowledgedBatch.make(count: 5)]
            #expect(try await first.openBatchLog().append(batches).allSatisfy { $0 != nil })
            #expect(try await Self.batchesOfRunningReplicas(admin, expected: 2) == 2)

            let other = try #require(fixture.store as? PostgresReportStore).openBatchLog()
            let pipeline = IngestPipeline()
            #expect(try await other.foldOrphans(pipeline: pipeline, atStart: true) == 0)
            // Past the age at which batches of a replica that stopped are claimed (2 s).
            try await Task.sleep(for: .milliseconds(2500))
            #expect(try await other.foldOrphans(pipeline: pipeline, atStart: false) == 0)
            #expect(try await other.holds(upTo: Int64.max))

            running.cancel()
            _ = await running.result
            #expect(try await Self.batchesOfRunningReplicas(admin, expected: 0) == 0, "its lock ends with it")
            #expect(try await other.foldOrphans(pipeline: pipeline, atStart: false) == 2)
            #expect(try await other.foldOrphans(pipeline: pipeline, atStart: false) == 0)
            let window = FieldsQuery(since: date("2026-11-21T00:00:00Z"), until: date("2026-11-22T00:00:00Z"))
            let counts = try await fixture.store.fields(window).fields.map { ($0.path, $0.count) }
            #expect(Dictionary(uniqueKeysWithValues: counts) == ["$.results[*].title": 7])
        }
    }

    @Test(
        "an append that fails may have committed all the same, so the replica gives up its key: what it logged before is claimed by another, what it logs after is kept"
    )
    func failedAppendLeavesEarlierBatchesToOthers() async throws {
        try await Self.withFirstReplica { fixture, admin, first, _ in
            let log = try first.openBatchLog()
            // Logged, and held by no folder: as a batch whose append committed after its answer was lost.
            #expect(try await log.append([AcknowledgedBatch.make(count: 2)]).allSatisfy { $0 != nil })
            #expect(try await Self.batchesOfRunningReplicas(admin, expected: 1) == 1)

            try await fixture.database.execute(
                """
                CREATE FUNCTION refuse_appends() RETURNS trigger LANGUAGE plpgsql AS
                    $$ BEGIN RAISE EXCEPTION 'appends refused by the test'; END $$
                """)
            try await fixture.database.execute(
                "CREATE TRIGGER refuse_appends BEFORE INSERT ON ingest_log FOR EACH ROW EXECUTE FUNCTION refuse_appends()"
            )
            await #expect(throws: StoreError.self) { try await log.append([AcknowledgedBatch.make(count: 3)]) }
            try await fixture.database.execute("DROP TRIGGER refuse_appends ON ingest_log")
            #expect(try await log.append([AcknowledgedBatch.make(count: 5)]).allSatisfy { $0 != nil })
            #expect(
                try await Self.batchesOfRunningReplicas(admin, expected: 1) == 1,
                "the batch logged after the failure names the new key, whose lock the replica holds")

            let other = try #require(fixture.store as? PostgresReportStore).openBatchLog()
            try await Task.sleep(for: .milliseconds(2500))
            #expect(try await other.foldOrphans(pipeline: IngestPipeline(), atStart: false) == 1)
            let window = FieldsQuery(since: date("2026-11-21T00:00:00Z"), until: date("2026-11-22T00:00:00Z"))
            #expect(try await fixture.store.fields(window).fields.map(\.count) == [2])
        }
    }

    /// Runs `body` on a fresh PostgreSQL database with the fixture's store and a first replica's, whose pool runs
    /// until `body` ends; `body` also gets the admin connection, to look at the log and the locks.
    private static func withFirstReplica(
        _ body: (StoreFixture, PostgresConnection, PostgresReportStore, Task<Void, any Error>) async throws -> Void
    ) async throws {
        try await StoreBackend.postgres.withFreshDatabase { fixture in
            guard case .postgres(_, let admin) = fixture.database else { return }
            let (_, pool) = try fixture.database.open()
            let first = try #require(pool)
            let running = Task { try await first.run() }
            defer { running.cancel() }
            try await body(fixture, admin, first, running)
        }
    }

    /// How many logged batches name a replica that runs (that holds its advisory lock), once there are `expected`
    /// (within 5 s: a replica takes its lock in the background).
    private static func batchesOfRunningReplicas(_ admin: PostgresConnection, expected: Int) async throws -> Int {
        var count = -1
        for _ in 0..<100 {
            let rows = try await admin.query(
                """
                SELECT count(*) FROM ingest_log WHERE owner IN (
                    SELECT (classid::BIGINT << 32) | objid::BIGINT FROM pg_locks
                    WHERE locktype = 'advisory' AND objsubid = 1 AND granted)
                """, logger: FreshDatabase.logger)
            for try await value in rows.decode(Int.self) { count = value }
            if count == expected { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return count
    }
}
