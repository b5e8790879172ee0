import DecodeWatchCore
import DecodeWatchServer
import DecodeWatchStore
import DecodeWatchStoreSQLite
@_exported import DecodeWatchTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real collector with a fresh SQLite file, for one test: on a free loopback port, or reached through its router.
struct TestCollector {
    /// How a test reaches the collector.
    enum Reach: Sendable {
        /// A socket on a free loopback port: for what happens on the wire, and for clients that need an address.
        case socket
        /// Each request handed to the application's router in memory (HummingbirdTesting's `.router`): for tests of
        /// requests and answers alone.
        case router
    }

    /// The HTTP client for this collector.
    let client: TestHTTPClient
    /// Where the collector listens; `nil` when it is reached through its router.
    let address: URL?
    let store: SQLiteReportStore
    let databasePath: String

    /// Runs `body` against a running collector, then shuts it down and deletes its database.
    static func run<T: Sendable>(
        _ configuration: ServerConfiguration = ServerConfiguration(port: 0),
        busyTimeout: TimeInterval = 10, reach: Reach = .socket,
        _ body: @Sendable (TestCollector) async throws -> T
    ) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decodewatch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("test.sqlite").path
        let store = try SQLiteReportStore(path: path, busyTimeout: busyTimeout)
        var configuration = configuration
        configuration.port = 0
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let app = buildApplication(
            configuration: configuration, store: store, logger: logger,
            onServerRunning: { port in portContinuation.yield(port) })
        if reach == .router {
            return try await app.test(.router) { client in
                try await body(
                    TestCollector(
                        client: TestHTTPClient(router: client), address: nil, store: store, databasePath: path))
            }
        }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // A server that cannot start ends the port stream, so the test fails instead of waiting.
                defer { portContinuation.finish() }
                try await app.runService(gracefulShutdownSignals: [])
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                try await group.next()  // rethrows why the server did not start
                throw TestFailure("The collector stopped before listening.")
            }
            // A session of its own: a pooled connection to an earlier test server on a recycled port must never be
            // reused.
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            let address = URL(string: "http://127.0.0.1:\(port)")!
            let collector = TestCollector(
                client: TestHTTPClient(baseURL: address, session: session), address: address, store: store,
                databasePath: path)
            do {
                let result = try await body(collector)
                group.cancelAll()
                return result
            } catch {
                group.cancelAll()
                throw error
            }
        }
    }

    /// ``run(_:busyTimeout:_:)`` with `seed` storing what the test starts from before `body` runs, for suites whose
    /// tests share their stored batches.
    static func run<T: Sendable>(
        reach: Reach = .socket, seed: @Sendable (TestCollector) async throws -> Void,
        _ body: @Sendable (TestCollector) async throws -> T
    ) async throws -> T {
        try await run(reach: reach) { collector in
            try await seed(collector)
            return try await body(collector)
        }
    }

    /// Sends a raw request and returns the status, headers and body.
    func send(
        _ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> HTTPAnswer {
        try await client.send(method, path, body: body, headers: headers)
    }

    /// Where the collector listens, for a client of its own; only a collector on a socket has one.
    var baseURL: URL {
        guard let address else { preconditionFailure("A collector reached through its router has no address.") }
        return address
    }

    /// The port the collector listens on.
    var port: Int { baseURL.port! }

    /// Creates a credential in the collector's store, as `decodewatch keys create` does.
    /// - Parameter scope: what a read token may do.
    /// - Returns: the secret to send and the stored record.
    func createCredential(_ kind: CredentialKind, app: String? = nil, scope: TokenScope = .read) async throws -> (
        String, Credential
    ) {
        let secret = CredentialSecret(kind: kind)
        let credential = Credential(kind: kind, app: app, name: "test", scope: scope, createdAt: Date(), createdBy: nil)
        try await store.insertCredential(credential, secretHash: secret.hash)
        return (secret.value, credential)
    }

    /// Posts a batch JSON document, compressed as asked (deflate unless told), with an ingest key when given.
    func ingest(
        _ json: Data, encoding: String? = "deflate", contentType: String = "application/json", key: String? = nil
    ) async throws -> HTTPAnswer {
        try await client.post(batch: json, encoding: encoding, contentType: contentType, key: key)
    }

    /// Posts a batch built from a dictionary.
    func ingest(_ batch: [String: Any], encoding: String? = "deflate", key: String? = nil) async throws -> HTTPAnswer {
        try await client.post(batch: batch, encoding: encoding, key: key)
    }

    /// Posts a batch of one report, expects it acknowledged, and returns the id of the report's group.
    /// - Parameter token: the read token `/v1/fields` needs once one exists.
    func ingestOneGroup(token: String? = nil) async throws -> String {
        let answer = try await ingest(Batches.batch(reports: [Batches.report()]))
        #expect(answer.status == 202, "\(answer.text)")
        return try #require(try await fields(token: token).fields.first?.group)
    }

    /// Posts a decision about a group (`/v1/groups/{group}/…`), expects 200, and returns the group's answer.
    func decide(_ path: String) async throws -> GroupAnswer {
        let answer = try await send("POST", path)
        #expect(answer.status == 200, "\(answer.text)")
        return try answer.decoded()
    }

    /// Reads `/v1/fields` with the given query string, with a read token when given.
    func fields(_ query: String = "", token: String? = nil) async throws -> FieldsSummary {
        let answer = try await client.get("/v1/fields" + (query.isEmpty ? "" : "?" + query), token: token)
        guard answer.status == 200 else {
            throw TestFailure("GET /v1/fields answered \(answer.status): \(answer.text)")
        }
        return try JSONDecoder().decode(FieldsSummary.self, from: answer.body)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
