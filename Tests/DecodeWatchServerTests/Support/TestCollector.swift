import DecodeWatchCore
import DecodeWatchServer
import DecodeWatchStore
import DecodeWatchStoreSQLite
import DecodeWatchZlib
import Foundation
import Hummingbird
import Logging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real collector on a free loopback port with a fresh SQLite file, for one test.
struct TestCollector {
    let baseURL: URL
    /// A session of its own: a pooled connection to an earlier test server on a recycled port
    /// must never be reused.
    let session: URLSession
    let store: SQLiteReportStore
    let databasePath: String

    /// Runs `body` against a running collector, then shuts it down and deletes its database.
    static func run<T: Sendable>(
        _ configuration: ServerConfiguration = ServerConfiguration(port: 0),
        busyTimeout: TimeInterval = 10,
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
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            let collector = TestCollector(
                baseURL: URL(string: "http://127.0.0.1:\(port)")!, session: session, store: store, databasePath: path)
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

    /// Sends a raw request and returns the status, headers and body.
    func send(
        _ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> HTTPAnswer {
        var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        return HTTPAnswer(
            status: http.statusCode, headers: http.allHeaderFields as? [String: String] ?? [:], body: data)
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

    /// Posts a batch JSON document, compressed as asked, with an ingest key when given.
    func ingest(
        _ json: Data, encoding: String? = "deflate", contentType: String = "application/json", key: String? = nil
    ) async throws -> HTTPAnswer {
        var headers = ["Content-Type": contentType]
        if let key { headers["Authorization"] = "Bearer \(key)" }
        var body = json
        switch encoding {
        case "deflate": body = try Zlib.compress(json, format: .zlib)
        case "gzip": body = try Zlib.compress(json, format: .gzip)
        default: break
        }
        if let encoding { headers["Content-Encoding"] = encoding }
        return try await send("POST", "/v1/reports", body: body, headers: headers)
    }

    /// Posts a batch built from a dictionary.
    func ingest(_ batch: [String: Any], encoding: String? = "deflate", key: String? = nil) async throws -> HTTPAnswer {
        try await ingest(try JSONSerialization.data(withJSONObject: batch), encoding: encoding, key: key)
    }

    /// Reads `/v1/fields` with the given query string, with a read token when given.
    func fields(_ query: String = "", token: String? = nil) async throws -> FieldsSummary {
        let answer = try await send(
            "GET", "/v1/fields" + (query.isEmpty ? "" : "?" + query),
            headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
        guard answer.status == 200 else {
            throw TestFailure("GET /v1/fields answered \(answer.status): \(answer.text)")
        }
        return try JSONDecoder().decode(FieldsSummary.self, from: answer.body)
    }
}

/// A status, headers and body.
struct HTTPAnswer: Sendable {
    let status: Int
    let headers: [String: String]
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }

    /// The `error.code` of an error body (docs/wire-format.md#errors).
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }

    /// The `error.message` of an error body (docs/wire-format.md#errors).
    var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
