import DecodeWatchServer
import DecodeWatchTestSupport
import DecodeWatchZlib
import Foundation
import Synchronization
import Testing

/// A retry storm against the real collector: refusals are cheap (no body read, the connection closed), and the
/// collector still answers probes during it and stores batches right after it.
@Suite("Overload: cheap refusals under a retry storm")
struct OverloadTests {
    /// The head of a batch, its body not sent yet.
    static func head(contentLength: Int) -> String {
        "POST /v1/reports HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Encoding: deflate\r\nContent-Length: \(contentLength)\r\n\r\n"
    }

    /// A whole request carrying a new valid batch.
    static func request() throws -> [UInt8] {
        let json = try Batches.oneReportJSON()
        let body = try Zlib.compress(json, format: .zlib)
        return Array(head(contentLength: body.count).utf8) + Array(body)
    }

    /// A connection that took the only place in the ingest queue: it sent a head announcing a body it never sends.
    final class QueueHolder: Sendable {
        private let socket: Mutex<CInt?>

        init(port: Int) throws {
            let fd = try RawHTTP.dial(port: port)
            _ = Array(OverloadTests.head(contentLength: 6000).utf8).withUnsafeBytes {
                send(fd, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL))
            }
            socket = Mutex(fd)
        }

        /// Closes the connection: the collector gives its place back.
        func release() {
            socket.withLock { fd in
                if let open = fd { close(open) }
                fd = nil
            }
        }

        deinit { release() }
    }

    /// Runs `body` against a collector whose one place in the ingest queue is taken by `holder`, made sure of by a
    /// batch that is refused: a holder whose head arrived after that batch took the place is refused itself, and
    /// then taken again.
    static func withFullQueue(_ body: @Sendable (TestCollector, QueueHolder) async throws -> Void) async throws {
        try await TestCollector.run(ServerConfiguration(port: 0, maxConcurrentIngests: 1)) { collector in
            for _ in 0..<20 {
                let holder = try QueueHolder(port: collector.port)
                defer { holder.release() }
                // The holder's head must reach the queue before the probe; a late one is tried again.
                try await Task.sleep(for: .milliseconds(200))
                if try RawHTTP.exchange(port: collector.port, try request(), timeout: 5).status == 429 {
                    try await body(collector, holder)
                    return
                }
            }
            throw TestFailure("The ingest queue never filled up.")
        }
    }

    @Test(
        "a batch refused while the queue is full gets 429, Retry-After and Connection: close without sending its body")
    func refusalNeedsNoBody() async throws {
        try await Self.withFullQueue { collector, _ in
            // Only the head: the answer comes without the 100 KB it announces, and the collector closes the connection.
            let refused = try RawHTTP.exchange(
                port: collector.port, Array(Self.head(contentLength: 100_000).utf8), halfClose: false, timeout: 20)
            #expect(refused.status == 429, "answered \(refused.response)")
            #expect(refused.closed, "the connection stayed open")
            let head = refused.response.lowercased()
            #expect(head.contains("connection: close"))
            #expect(head.contains("retry-after: 5"))
            #expect(refused.response.contains(#"{"error":{"code":"ingest_queue_full","message":"#))
        }
    }

    @Test("a refused batch is answered after a hold within Retry-After, not at once")
    func refusalIsHeld() async throws {
        try await Self.withFullQueue { collector, _ in
            let refused = try RawHTTP.exchange(port: collector.port, try Self.request(), halfClose: false, timeout: 20)
            #expect(refused.status == 429, "answered \(refused.response)")
            // Retry-After is 5 s: the hold is between 2.5 s and 5 s, so a client retrying at once comes back slowly.
            #expect(refused.seconds >= 2.4 && refused.seconds <= 6, "answered after \(refused.seconds) s")
        }
    }

    @Test("batches pipelined on one connection are each stored and answered in order")
    func pipelinedBatchesAreStored() async throws {
        try await TestCollector.run(ServerConfiguration(port: 0, maxConcurrentIngests: 1)) { collector in
            let exchange = try RawHTTP.exchange(
                port: collector.port,
                try Self.request() + Self.request()
                    + Array(
                        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8) + Self.request())
            let statuses = exchange.response.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(statuses == ["202", "202", "200", "202"], "answered \(exchange.response)")
            #expect(try await collector.fields().fields.reduce(0) { $0 + $1.count } == 3)
        }
    }

    @Test("a batch pipelined behind a probe while the queue is full is answered 429 after the probe's 200")
    func pipelinedBatchIsRefusedInOrder() async throws {
        try await Self.withFullQueue { collector, _ in
            let exchange = try RawHTTP.exchange(
                port: collector.port,
                Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8) + Self.request(), halfClose: false,
                timeout: 20)
            let statuses = exchange.response.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(statuses == ["200", "429"], "answered \(exchange.response)")
            #expect(exchange.closed, "the connection stayed open")
        }
    }

    @Test("probes and reads answer while the ingest queue is full")
    func probesAnswerWhenFull() async throws {
        try await Self.withFullQueue { collector, _ in
            for path in ["/healthz", "/readyz", "/metrics"] {
                let answer = try await collector.send("GET", path)
                #expect(answer.status == 200, "\(path) answered \(answer.status)")
            }
        }
    }

    @Test("after a storm of refused batches, the next batch is stored at once")
    func storesRightAfterStorm() async throws {
        try await Self.withFullQueue { collector, holder in
            let port = collector.port
            let request = try Self.request()
            // 200 clients at once, each sending a whole batch: every one is refused and its connection closed.
            let answers = await withTaskGroup(of: RawHTTP.Exchange?.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        // A thread each: blocking calls on Dispatch's global queues would take the threads the
                        // collector's tasks run on, and it would stop accepting connections.
                        await withCheckedContinuation { done in
                            Thread {
                                done.resume(returning: try? RawHTTP.exchange(port: port, request, halfClose: false))
                            }.start()
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let summary = answers.map {
                "\($0?.status.map(String.init) ?? "none") \($0?.closed == true ? "closed" : "open")"
            }
            #expect(
                summary.allSatisfy { $0 == "429 closed" },
                "\(Dictionary(summary.map { ($0, 1) }, uniquingKeysWith: +))")
            // The holder gives up its place; the next batch is stored.
            holder.release()
            let stored = try await eventually(within: .seconds(5), every: .milliseconds(100)) {
                try await collector.ingest(Batches.batch(reports: [Batches.report()])).status == 202
            }
            #expect(stored)
        }
    }

    @Test("a batch over its app's rate limit gets 429 with Connection: close and its connection is closed")
    func rateLimitedClosesConnection() async throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.appBatchesPerMinute = 1
        try await TestCollector.run(configuration) { collector in
            #expect(try await collector.ingest(Batches.batch(reports: [Batches.report()])).status == 202)
            let refused = try RawHTTP.exchange(port: collector.port, try Self.request(), halfClose: false, timeout: 20)
            #expect(refused.status == 429, "answered \(refused.response)")
            #expect(refused.closed, "the connection stayed open")
            #expect(refused.response.lowercased().contains("connection: close"))
            #expect(refused.response.contains("rate_limited"))
        }
    }
}
