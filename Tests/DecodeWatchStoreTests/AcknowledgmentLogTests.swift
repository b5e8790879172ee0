import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchStoreSQLite
import Foundation
import GRDB
import Testing

/// SQLite's log of acknowledged batches: a batch is acknowledged once its body is in the log, and folded into the
/// rollups in the background; reads wait for it, duplicates are recognised wherever it is, and what a closed
/// store left in the log is folded by the next one.
@Suite("SQLite: batches acknowledged from a log")
struct AcknowledgmentLogTests {
    @Test("an acknowledged batch is in the next read, and sent again it is a duplicate, in the log or folded")
    func readsSeeAcknowledgedBatches() async throws {
        try await AcknowledgedBatch.withFolder { path in
            let collector = try Self.open(path)
            let batch = try AcknowledgedBatch.make(count: 3)
            #expect(try await collector.sink.commit([batch, batch]) == [.stored, .duplicate])
            #expect(try await collector.sink.commit(batch) == .duplicate)
            #expect(try await collector.store.fields(Self.window).fields.map(\.count) == [3])
            #expect(try await collector.sink.commit(batch) == .duplicate)
            #expect(try await collector.store.fields(Self.window).fields.map(\.count) == [3])
            #expect(try Self.logged(path) == 0)
        }
    }

    @Test("batches a closed store left in the log are folded by the next store on the file, each once")
    func leftoversAreFoldedOnce() async throws {
        try await AcknowledgedBatch.withFolder { path in
            let first = try AcknowledgedBatch.make(count: 2, path: "title")
            let second = try AcknowledgedBatch.make(count: 5, path: "body")
            // The database is locked, so the first store can only acknowledge: its writes keep failing.
            let blocker: DatabaseQueue
            do {
                let closing = try Self.open(path)
                blocker = try Self.lock(path)
                #expect(try await closing.sink.commit([first, second]) == [.stored, .stored])
            }
            #expect(try Self.logged(path) == 2)
            try await blocker.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }

            let next = try Self.open(path)
            let fields = try await next.store.fields(Self.window).fields
            #expect(
                Dictionary(uniqueKeysWithValues: fields.map { ($0.path, $0.count) }) == [
                    "$.results[*].title": 2, "$.results[*].body": 5,
                ])
            #expect(try Self.logged(path) == 0)
            #expect(try await next.sink.commit(first) == .duplicate)
        }
    }

    @Test("the log, which holds snippets before redaction, is readable by its owner only, whatever the umask")
    func logIsPrivate() async throws {
        try await AcknowledgedBatch.withFolder { path in
            let collector = try Self.open(path)
            #expect(try await collector.sink.commit(AcknowledgedBatch.make(count: 1)) == .stored)
            for file in [path + "-pending", path + "-pending-wal"] {
                let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
                #expect(mode == 0o600, "\(file)")
            }
        }
    }

    @Test("a store opened without the log, as the CLI opens it, waits for the batches a running collector acknowledged")
    func otherProcessesWaitForTheLog() async throws {
        try await withUnfoldedBatch { cli, unlock async throws in
            // The collector folds the batch at its next attempt, about a second after the lock is gone.
            Task {
                try await Task.sleep(for: .milliseconds(100))
                try await unlock()
            }
            #expect(try await cli.fields(Self.window).fields.map(\.count) == [3])
        }
    }

    @Test("a store opened without the log reads without a collector's unfolded batches after waiting 5 seconds, once")
    func otherProcessesGiveUpWaiting() async throws {
        try await withUnfoldedBatch { cli, unlock async throws in
            let started = ContinuousClock.now
            #expect(try await cli.fields(Self.window).fields.isEmpty)
            #expect(ContinuousClock.now - started >= .seconds(5))
            #expect(ContinuousClock.now - started < .seconds(8), "a later read waited for the same batches again")
            try await unlock()
        }
    }

    static let window = FieldsQuery(since: date("2026-11-21T00:00:00Z"), until: date("2026-11-22T00:00:00Z"))

    /// A store with a short lock wait, and its logged sink.
    private static func open(_ path: String) throws -> OpenedStore {
        try OpenedStore(try SQLiteReportStore(path: path, busyTimeout: 0.1), mode: .logged)
    }

    /// Holds a database's write lock until the returned connection rolls back.
    private static func lock(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let blocker = try DatabaseQueue(path: path, configuration: configuration)
        try blocker.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
        return blocker
    }

    /// How many batches the log of a database holds.
    private static func logged(_ path: String) throws -> Int {
        try DatabaseQueue(path: path + "-pending").read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM pending") ?? 0
        }
    }

    /// Runs `body` with a store opened without the log (as the CLI opens it) on a file whose collector has
    /// acknowledged a batch of 3 reports it cannot fold: the database is locked until `body` calls `unlock`.
    private func withUnfoldedBatch(
        _ body: (SQLiteReportStore, @escaping @Sendable () async throws -> Void) async throws -> Void
    ) async throws {
        try await AcknowledgedBatch.withFolder { path in
            let collector = try Self.open(path)
            let cli = try SQLiteReportStore(path: path, busyTimeout: 0.1)
            let blocker = try Self.lock(path)
            #expect(try await collector.sink.commit(AcknowledgedBatch.make(count: 3)) == .stored)
            // The collector folds while it lives: kept to the end.
            defer { withExtendedLifetime(collector) {} }
            try await body(cli) { try await blocker.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") } }
        }
    }
}
