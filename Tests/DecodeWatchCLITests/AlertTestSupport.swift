import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real collector (or several), a real webhook receiver on 127.0.0.1 and the CLI, for the alert tests.
final class AlertHarness: @unchecked Sendable {
    let folder: URL
    let database: [String]
    let receiver: TestReceiver
    private(set) var servers: [CLI.RunningServer] = []
    private(set) var ports: [Int] = []
    let session = URLSession(configuration: .ephemeral)

    /// The webhook URL rules post to; its path is the kind of secret no log may show.
    var webhook: String { "http://127.0.0.1:\(receiver.port)/services/T000/B000/secret-token-123" }

    init(storage: Storage, receiver: TestReceiver? = nil) async throws {
        folder = try CLI.temporaryFolder()
        database = try storage.flags(in: folder)
        if let receiver {
            self.receiver = receiver
        } else {
            self.receiver = try await TestReceiver.webhook()
        }
    }

    /// Starts `decodewatch serve` processes on the harness's database.
    func start(replicas: Int = 1, flags: [String] = ["--alert-interval", "1s"]) async throws {
        for _ in 0..<replicas {
            let server = try CLI.start(["serve", "--port", "0"] + flags + database)
            servers.append(server)
            ports.append(try await server.port())
        }
    }

    /// Adds a rule with `decodewatch alerts add` and returns its id.
    @discardableResult
    func addRule(_ arguments: [String]) throws -> String {
        let result = try CLI.run(["alerts", "add", "--create", "--webhook", webhook] + arguments + database)
        try #require(result.status == 0, "\(result.error)")
        let id = result.output.split(separator: " ").first { $0.hasPrefix("rule_") }
        return try #require(id.map(String.init))
    }

    /// Posts a batch of reports that occur now, one per path, to a server.
    /// - Returns: the status and how long the answer took.
    @discardableResult
    func post(
        paths: [String], count: Int = 1, decodes: Int? = nil, version: String = "5.2.0", to server: Int = 0
    ) async throws -> (status: Int, seconds: TimeInterval) {
        let now = RFC3339.string(from: Date())
        var batch: [String: Any] = [
            "batch_id": UUID().uuidString, "app": ["id": "com.example.shop", "version": version],
            "install_id": "install-1",
            "reports": paths.map { path in
                [
                    "occurred_at": now, "endpoint": "GET /v2/posts?page=2", "path": ["results", 1, path],
                    "kind": "keyNotFound", "expected": "String", "count": count,
                ] as [String: Any]
            },
        ]
        if let decodes { batch["decodes"] = [["endpoint": "GET /v2/posts", "count": decodes]] }
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(ports[server])/v1/reports")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: batch)
        let started = Date()
        let (_, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, Date().timeIntervalSince(started))
    }

    /// Waits until the receiver got `count` requests, at most `timeout` seconds; returns how long it took.
    @discardableResult
    func waitForRequests(_ count: Int, timeout: TimeInterval = 60) async throws -> TimeInterval {
        let started = Date()
        let received = await receiver.waitForRequests(count, timeout: .seconds(timeout)).count
        guard received >= count else {
            Issue.record("\(received) of \(count) webhook requests after \(timeout)s")
            throw CancellationError()
        }
        return Date().timeIntervalSince(started)
    }

    /// The collector's `/metrics` text.
    func metrics(server: Int = 0) async throws -> String {
        let (data, _) = try await session.data(from: URL(string: "http://127.0.0.1:\(ports[server])/metrics")!)
        return String(decoding: data, as: UTF8.self)
    }

    /// A counter's value in `/metrics`, 0 when absent.
    func counter(_ line: String, server: Int = 0) async throws -> Int {
        let text = try await metrics(server: server)
        let found = text.split(separator: "\n").first { $0.hasPrefix(line + " ") }
        return found.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? 0
    }

    /// Waits until every server finished `more` further evaluations, so "no alert" is a checked fact.
    func waitForEvaluations(_ more: Int = 2) async throws {
        let line = #"decodewatch_alert_evaluations_total{outcome="ok"}"#
        for server in ports.indices {
            let start = try await counter(line, server: server)
            try await eventually(within: .seconds(30), every: .milliseconds(100)) {
                try await counter(line, server: server) >= start + more
            }
        }
    }

    /// The JSON alert of a received request.
    func alert(_ index: Int) throws -> JSONAlert {
        try JSONDecoder().decode(JSONAlert.self, from: receiver.requests[index].body)
    }

    /// The Slack text of a received request.
    func text(_ index: Int) throws -> String {
        // Raw JSON: a Slack message holds the text and no other key.
        let body = try #require(
            try JSONSerialization.jsonObject(with: receiver.requests[index].body) as? [String: Any])
        #expect(body.keys.sorted() == ["text"])
        return try #require(body["text"] as? String)
    }

    /// Stops every server (checking they exit 0), the receiver, and removes the folder.
    func stop() async throws {
        for server in servers { #expect(try await server.terminate() == 0) }
        await receiver.stop()
        session.invalidateAndCancel()
        try? FileManager.default.removeItem(at: folder)
    }
}
