import DecodeWatchZlib
import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// An HTTP/1.1 server on a loopback port that records requests and answers from a script: a stand-in for a
/// collector the SDK uploads to, a webhook, or an API such as GitHub's.
///
/// A real Hummingbird server, so real clients (`URLSession`, the CLI) are exercised; `Connection: close` on every
/// answer. Nothing in it blocks a thread: starting, stopping and waiting for requests are awaited.
public final class TestReceiver: Sendable {
    public struct Request: Sendable {
        public let method: String
        public let target: String
        /// Header names lower-cased.
        public let headers: [String: String]
        public let body: Data
        public let receivedAt: Date

        /// Method, target and version, as on the wire (the server speaks HTTP/1.1 only).
        public var requestLine: String { "\(method) \(target) HTTP/1.1" }

        /// The body, inflated when it came with `Content-Encoding: deflate`.
        public var inflated: Data? {
            headers["content-encoding"] == "deflate" ? try? Zlib.decompress(body) : body
        }
    }

    public enum Reply: Sendable {
        /// A status with a body; `Content-Type: application/json` unless `headers` names another.
        case status(Int, headers: [String: String] = [:], body: String = "{}")
        /// Close the connection without answering: the client sees a network error.
        case hangUp

        /// A collector's 202 to a new batch.
        public static let accepted = Reply.status(202, body: #"{"accepted":1,"rejected":[],"duplicate":false}"#)

        /// A plain-text answer, as a webhook gives.
        public static func text(_ status: Int, _ body: String = "ok") -> Reply {
            .status(status, headers: ["Content-Type": "text/plain"], body: body)
        }

        /// An error answer with the contract's body, `{"error": {"code": …, "message": …}}`.
        public static func error(_ status: Int, code: String, message: String) -> Reply {
            let body = try! JSONSerialization.data(withJSONObject: ["error": ["code": code, "message": message]])
            return .status(status, body: String(decoding: body, as: UTF8.self))
        }
    }

    private struct State {
        var recorded: [Request] = []
        var script: [Reply]
        /// Waiters for a number of requests, resumed when it is reached or their wait is cancelled.
        var waiters: [UUID: (count: Int, resume: CheckedContinuation<Void, Never>)] = [:]
        var cancelled: Set<UUID> = []
    }

    public let port: Int
    private let state: NIOLockedValueBox<State>
    private let server: Task<Void, Never>

    /// Starts listening on 127.0.0.1 on a free port, and returns once it listens.
    /// - Parameters:
    ///   - replies: the answers to the first requests, in order.
    ///   - otherwise: the answer to every request after them.
    ///   - delay: how long each answer takes, as a slow server's would.
    public init(replies: [Reply] = [], otherwise: Reply = .accepted, delay: Duration = .zero) async throws {
        let state = NIOLockedValueBox(State(script: replies))
        self.state = state
        let responder = CallbackResponder<ChannelContext> { request, context in
            let body = try await request.body.collect(upTo: .max)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let recorded = Request(
                method: request.method.rawValue, target: request.uri.description, headers: headers,
                body: Data(body.readableBytesView), receivedAt: Date())
            let reply = state.withLockedValue { state in
                state.recorded.append(recorded)
                return state.script.isEmpty ? otherwise : state.script.removeFirst()
            }
            // Waiters learn of a request once its exchange is over: every answer closes its connection, so a test
            // that goes on to stop the receiver, or to cancel the client, never cuts an answer off.
            context.channel.closeFuture.whenComplete { _ in TestReceiver.resumeWaiters(state) }
            if delay > .zero { try await Task.sleep(for: delay) }
            switch reply {
            case .hangUp:
                try await context.channel.close()
                throw CancellationError()
            case .status(let status, let extra, let text):
                var fields: HTTPFields = [.contentType: "application/json", .connection: "close"]
                for (name, value) in extra { HTTPFields.Element.Name(name).map { fields[$0] = value } }
                return Response(
                    status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
            }
        }
        var logger = Logger(label: "test-receiver")
        logger.logLevel = .critical
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            responder: responder, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                if let port = channel.localAddress?.port { listening.yield(port) }
                listening.finish()
            }, logger: logger)
        server = Task {
            try? await app.run()
            listening.finish()  // a server that cannot start ends the wait for its port
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw POSIXError(.EADDRINUSE) }
        self.port = port
    }

    deinit { server.cancel() }

    /// Resumes the waiters whose number of requests has arrived.
    private static func resumeWaiters(_ state: NIOLockedValueBox<State>) {
        let arrived = state.withLockedValue { state in
            let count = state.recorded.count
            let arrived = state.waiters.filter { $0.value.count <= count }
            for id in arrived.keys { state.waiters[id] = nil }
            return arrived.values.map(\.resume)
        }
        for waiter in arrived { waiter.resume() }
    }

    /// The server's base URL, `http://127.0.0.1:<port>`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Queues answers for the next requests, after those already queued.
    public func reply(_ replies: Reply...) {
        state.withLockedValue { $0.script.append(contentsOf: replies) }
    }

    /// The requests received so far.
    public var requests: [Request] { state.withLockedValue { $0.recorded } }

    /// Waits until at least `count` requests have arrived, or `timeout` passes.
    /// - Returns: the requests received by then.
    public func waitForRequests(_ count: Int, timeout: Duration = .seconds(10)) async -> [Request] {
        _ = try? await withDeadline(timeout, "\(count) requests") { [self] in await arrival(of: count) }
        return requests
    }

    /// Returns once `count` requests have arrived, or the task is cancelled.
    private func arrival(of count: Int) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let now = state.withLockedValue { state in
                    if state.recorded.count >= count || state.cancelled.remove(id) != nil { return true }
                    state.waiters[id] = (count, waiter)
                    return false
                }
                if now { waiter.resume() }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    state.cancelled.insert(id)  // cancelled before it waited: it must not start
                    return CheckedContinuation<Void, Never>?.none
                }
                return waiter.resume
            }
            waiter?.resume()
        }
    }

    /// Stops listening, and returns once later connections are refused, as if the server were down.
    public func stop() async {
        server.cancel()
        await server.value
    }

    /// Stops listening without waiting, for a `defer`; ``stop()`` when later connections must be refused.
    public func cancel() {
        server.cancel()
    }
}

/// A request context that keeps the request's connection, so that a scripted answer can hang up.
struct ChannelContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
