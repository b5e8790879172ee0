import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchStoreSQLite
import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// A real HTTP/1.1 receiver on 127.0.0.1, on Hummingbird: answers each request with the next scripted answer
/// (then 200 `ok`) and records them. `Connection: close` on every answer; enough for a webhook, or for a stand-in
/// of an API such as GitHub's.
final class LocalHTTPReceiver: Sendable {
    struct Received: Sendable {
        /// Method, target and version, as on the wire (the server speaks HTTP/1.1 only).
        var requestLine: String
        /// Header names lower-cased.
        var headers: [String: String]
        var body: Data
    }

    /// One scripted answer.
    struct Answer: Sendable {
        var status: Int
        var body = "ok"
        var contentType = "text/plain"
    }

    let port: Int
    private let state: NIOLockedValueBox<(script: [Answer], received: [Received])>
    private let server: Task<Void, Never>

    /// Starts listening on a free port, and returns once it listens.
    /// - Parameters:
    ///   - statuses: the statuses of the first answers, in order, each with the body `ok`; 200 after them.
    ///   - delay: how long each answer takes, as a slow webhook's would.
    convenience init(statuses: [Int] = [], delay: TimeInterval = 0) throws {
        try self.init(answers: statuses.map { Answer(status: $0) }, delay: delay)
    }

    /// Starts listening on a free port, and returns once it listens.
    /// - Parameters:
    ///   - answers: the first answers, in order; 200 `ok` after them.
    ///   - delay: how long each answer takes.
    init(answers: [Answer], delay: TimeInterval = 0) throws {
        let state = NIOLockedValueBox((script: answers, received: [Received]()))
        self.state = state
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            let body = try await request.body.collect(upTo: .max)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let received = Received(
                requestLine: "\(request.method.rawValue) \(request.uri) HTTP/1.1", headers: headers,
                body: Data(body.readableBytesView))
            let answer = state.withLockedValue {
                $0.received.append(received)
                return $0.script.isEmpty ? Answer(status: 200) : $0.script.removeFirst()
            }
            if delay > 0 { try await Task.sleep(for: .seconds(delay)) }
            return Response(
                status: .init(code: answer.status),
                headers: [.contentType: answer.contentType, .connection: "close"],
                body: .init(byteBuffer: ByteBuffer(string: answer.body)))
        }
        var logger = Logger(label: "local-http-receiver")
        logger.logLevel = .critical
        let started = DispatchSemaphore(value: 0)
        let port = NIOLockedValueBox<Int?>(nil)
        let app = Application(
            responder: responder, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                port.withLockedValue { $0 = channel.localAddress?.port }
                started.signal()
            }, logger: logger)
        server = Task {
            try? await app.run()
            started.signal()  // a server that cannot start ends the wait for its port
        }
        started.wait()
        guard let port = port.withLockedValue({ $0 }) else { throw POSIXError(.EADDRINUSE) }
        self.port = port
    }

    deinit { server.cancel() }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/hooks/digest")! }

    var requests: [Received] { state.withLockedValue { $0.received } }

    /// Stops listening, and returns once later connections are refused.
    func stop() {
        server.cancel()
        let stopped = DispatchSemaphore(value: 0)
        Task { [server] in
            await server.value
            stopped.signal()
        }
        stopped.wait()
    }
}

/// A fresh SQLite store on a temporary file, fed through the real validator and folding.
struct DigestFixture {
    let store: SQLiteReportStore
    let folder: URL
    var path: String { folder.appendingPathComponent("decodewatch.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("digest-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try SQLiteReportStore(path: folder.appendingPathComponent("decodewatch.sqlite").path)
    }

    func reopen() throws -> SQLiteReportStore { try SQLiteReportStore(path: path) }

    func send(
        _ count: Int, at time: String, path: [Any], endpoint: String = "GET /v2/posts", version: String = "5.2.0",
        install: String = "install-1", environment: String? = nil
    ) async throws {
        var body: [String: Any] = [
            "batch_id": UUID().uuidString, "app": ["id": "com.example.shop", "version": version], "install_id": install,
            "decodes": [["endpoint": endpoint, "count": count * 10]],
            "reports": [
                ["occurred_at": time, "endpoint": endpoint, "path": path, "kind": "keyNotFound", "count": count]
            ],
        ]
        body["environment"] = environment
        let batch = try BatchValidator().validate(
            JSONSerialization.data(withJSONObject: body), receivedAt: RFC3339.date(from: time)!.addingTimeInterval(30))
        _ = try await store.ingest(BatchAggregate(batch, redactor: Redactor()))
    }

    /// A day with a new, a growing, a fading and a regressed group, on two endpoints.
    func seedDay() async throws {
        try await send(10, at: "2026-11-02T05:00:00Z", path: ["results", 0, "grow"])
        for hour in 0..<24 where hour % 3 == 0 {
            try await send(5 + hour, at: String(format: "2026-11-03T%02d:10:00Z", hour), path: ["results", 0, "grow"])
        }
        try await send(25, at: "2026-11-03T04:00:00Z", path: ["results", 0, "new"], version: "5.3.0")
        try await send(40, at: "2026-11-02T09:00:00Z", path: ["fade"], endpoint: "GET /v2/users/7")
        try await send(3, at: "2026-11-03T09:00:00Z", path: ["fade"], endpoint: "GET /v2/users/8")
        try await send(2, at: "2026-11-01T09:00:00Z", path: ["back"])
        let summary = try await store.fields(
            FieldsQuery(
                since: RFC3339.date(from: "2026-11-01T00:00:00Z")!, until: RFC3339.date(from: "2026-11-02T00:00:00Z")!))
        try await store.resolve(group: summary.fields[0].group, at: RFC3339.date(from: "2026-11-01T12:00:00Z")!)
        try await send(7, at: "2026-11-03T20:00:00Z", path: ["back"], version: "5.3.1")
    }

    static let period = DigestPeriod(
        since: RFC3339.date(from: "2026-11-03T00:00:00Z")!, until: RFC3339.date(from: "2026-11-04T00:00:00Z")!)
    static let now = RFC3339.date(from: "2026-11-04T00:07:00Z")!
}
