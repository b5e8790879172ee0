import DecodeWatchCore
import DecodeWatchZlib
import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// An HTTP/1.1 server on a loopback port that records requests and answers from a script.
///
/// A real Hummingbird server, so the SDK's real `URLSession` upload is exercised; `Connection: close` on
/// every answer. Bodies with `Content-Encoding: deflate` are inflated with `Zlib.decompress` and decoded as
/// ``ReportBatch``.
final class TestReceiver: Sendable {
    struct Request: Sendable {
        let method: String
        let target: String
        /// Header names lower-cased.
        let headers: [String: String]
        let body: Data
        let receivedAt: Date

        var inflated: Data? {
            headers["content-encoding"] == "deflate" ? try? Zlib.decompress(body) : body
        }

        var batch: ReportBatch? {
            inflated.flatMap { try? JSONDecoder().decode(ReportBatch.self, from: $0) }
        }
    }

    enum Reply: Sendable {
        case status(Int, headers: [String: String] = [:], body: String = "{}")
        /// Close the connection without answering: the client sees a network error.
        case hangUp

        static let accepted = Reply.status(202, body: #"{"accepted":1,"rejected":[],"duplicate":false}"#)

        /// An error answer with the contract's body, `{"error": {"code": …, "message": …}}`.
        static func error(_ status: Int, code: String, message: String) -> Reply {
            let body = try! JSONSerialization.data(withJSONObject: ["error": ["code": code, "message": message]])
            return .status(status, body: String(decoding: body, as: UTF8.self))
        }
    }

    let port: UInt16
    private let state: NIOLockedValueBox<(recorded: [Request], script: [Reply])>
    private let server: Task<Void, Never>

    /// Starts listening on 127.0.0.1 on a free port, and returns once it listens.
    init() throws {
        let state = NIOLockedValueBox((recorded: [Request](), script: [Reply]()))
        self.state = state
        let responder = CallbackResponder<ChannelContext> { request, context in
            let body = try await request.body.collect(upTo: .max)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let recorded = Request(
                method: request.method.rawValue, target: request.uri.description, headers: headers,
                body: Data(body.readableBytesView), receivedAt: Date())
            let reply: Reply = state.withLockedValue {
                $0.recorded.append(recorded)
                return $0.script.isEmpty ? .accepted : $0.script.removeFirst()
            }
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
        self.port = UInt16(port)
    }

    deinit { server.cancel() }

    /// The collector base URL to configure.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Queues answers for the next requests; afterwards every request gets ``Reply/accepted``.
    func reply(_ replies: Reply...) {
        state.withLockedValue { $0.script.append(contentsOf: replies) }
    }

    /// The requests received so far.
    var requests: [Request] { state.withLockedValue { $0.recorded } }

    /// Waits until at least `count` requests have arrived, or the timeout passes.
    func waitForRequests(_ count: Int, timeout: TimeInterval = 10) async -> [Request] {
        let deadline = Date().addingTimeInterval(timeout)
        while requests.count < count, Date() < deadline {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return requests
    }

    /// Stops listening, and returns once later connections are refused, as if the collector were down.
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

/// A request context that keeps the request's connection, so that a scripted answer can hang up.
struct ChannelContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
