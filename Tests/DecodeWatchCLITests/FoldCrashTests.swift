import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import GRDB
import Testing

@testable import DecodeWatchServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `decodewatch serve` killed with SIGKILL while a fold of acknowledged batches is under way, held there by a lock
/// another session takes: every acknowledged batch is counted after, each once (docs/wire-format.md#durability).
@Suite("A collector killed in the middle of a fold", .serialized)
struct FoldCrashTests {
    static let batches = (0..<30).map { ReplicaBatch(index: $0) }

    @Test("SQLite: killed after a fold committed and before its batches left the log, each batch counts once")
    func sqliteBetweenCommitAndLog() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("cli.sqlite").path
        let server = try CLI.start(["serve", "--port", "0", "--db", database])
        let port = try await server.port()
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }

        // The database is locked: folds wait for it, acknowledgments (into the log) do not.
        let databaseLock = try Self.lockedSQLite(database)
        for batch in Self.batches { #expect(try await batch.post(to: port, session: session) == 202) }
        // The log is locked too, then the database let go: a fold commits and waits to take its batches off the log.
        let logLock = try Self.lockedSQLite(database + "-pending")
        try await databaseLock.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        var readOnly = Configuration()
        readOnly.readonly = true
        let reader = try DatabaseQueue(path: database, configuration: readOnly)
        var folded = 0
        try await eventually {
            folded = try await reader.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM batches") ?? 0 }
            return folded != 0
        }
        let logged = try await logLock.writeWithoutTransaction {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM pending") ?? 0
        }
        #expect(folded > 0, "no fold committed while the log was locked")
        #expect(logged == Self.batches.count, "the folded batches must still be in the log when the collector dies")
        kill(server.process.processIdentifier, SIGKILL)
        try await server.process.exit()
        try await logLock.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }

        try await Self.expectEachCountedOnce(["serve", "--port", "0", "--db", database])
    }

    @Test("PostgreSQL: a replica killed while its fold waits half written, another folds its batches, each once")
    func postgresMidFold() async throws {
        try await CLI.withDatabase(on: .postgres) { _, flags in
            let schema = try #require(flags.last?.components(separatedBy: "schema=").last)
            let url = try Storage.serverURL()
            let first = try CLI.start(["serve", "--port", "0"] + flags)
            let port = try await first.port()
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }

            // Another session holds the hourly rollups: a fold marks its batches folded in `ingest_log`, then waits
            // for the lock in the middle of its transaction. Acknowledgments (into `ingest_log`) do not wait.
            let holder = try PSQLSession(url: url)
            defer { holder.end() }
            holder.send("BEGIN; LOCK TABLE \(schema).group_hours IN EXCLUSIVE MODE; SELECT 'locked';")
            #expect(try await holder.waitForOutput(containing: "locked"))
            for batch in Self.batches { #expect(try await batch.post(to: port, session: session) == 202) }
            let waiting = """
                SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE NOT l.granted AND c.relname = 'group_hours' AND n.nspname = '\(schema)'
                """
            var folds = 0
            try await eventually {
                folds = Int(try PSQLSession.query(url: url, waiting)) ?? 0
                return folds != 0
            }
            #expect(folds == 1, "the fold must be waiting in the middle of its transaction when the replica dies")
            kill(first.process.processIdentifier, SIGKILL)
            try await first.process.exit()
            holder.send("ROLLBACK;")

            try await Self.expectEachCountedOnce(["serve", "--port", "0"] + flags)
        }
    }

    /// Starts a collector on the same database, which folds what the killed one left, then checks that every batch
    /// sent again is a duplicate and that each group counts each batch once.
    static func expectEachCountedOnce(_ arguments: [String]) async throws {
        let server = try CLI.start(arguments)
        let port = try await server.port()
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let expected = ReplicaBatch.expected(batches)
        let url = URL(
            string: "http://127.0.0.1:\(port)/v1/fields?since=2026-11-21T00:00:00Z&until=2026-11-22T00:00:00Z")!
        // Reads wait up to 5 s for what another collector acknowledged; a replica claims a stopped one's batches
        // within about 3 s.
        var counts: [String: Int] = [:]
        try await eventually(within: .seconds(20), every: .milliseconds(200)) {
            let (data, _) = try await session.data(from: url)
            let fields = try JSONDecoder().decode(FieldsSummary.self, from: data).fields
            counts = Dictionary(uniqueKeysWithValues: fields.map { ($0.path + " " + $0.endpoint, $0.count) })
            return counts == expected.mapValues(\.count)
        }
        #expect(counts == expected.mapValues(\.count))
        for batch in batches {
            let answer = try await batch.post(to: TestHTTPClient(port: port, session: session))
            #expect(
                (try? answer.decoded(IngestAnswer.self))?.duplicate == true, "batch \(batch.index): \(answer.text)")
        }
        #expect(try await server.terminate() == 0)
    }

    /// A connection to an SQLite file holding its write lock (`BEGIN EXCLUSIVE`) until `ROLLBACK`.
    static func lockedSQLite(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { try $0.execute(sql: "BEGIN EXCLUSIVE") }
        return queue
    }
}

/// A `psql` session fed statements one by one, which holds its transaction open between them.
final class PSQLSession: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lock = NSLock()
    private var printed = Data()

    init(url: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["--no-psqlrc", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", url]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let reading = output.fileHandleForReading
        Thread { [weak self] in
            while case let data = reading.availableData, !data.isEmpty {
                self?.lock.withLock { self?.printed.append(data) }
            }
        }.start()
    }

    /// Sends statements, ended by a new line.
    func send(_ statements: String) {
        input.fileHandleForWriting.write(Data((statements + "\n").utf8))
    }

    /// Waits up to 10 seconds until the session printed `text`.
    func waitForOutput(containing text: String) async throws -> Bool {
        try await eventually { lock.withLock { String(decoding: printed, as: UTF8.self) }.contains(text) }
    }

    /// Ends the session, rolling back what it holds.
    func end() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Runs one query on a session of its own and returns what it printed, trimmed.
    static func query(url: String, _ sql: String) throws -> String {
        try Subprocess.run(tool: "psql", ["--no-psqlrc", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", url, "-c", sql])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
