import Foundation
import Hummingbird
import Metrics
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Answers 429 to a batch on the event loop as soon as its request head arrives while the ingest queue is full,
/// and closes each connection whose answer says `Connection: close` once that answer is written.
///
/// Under a retry storm a refusal that went through the router took a task on the cooperative pool, where the
/// batches being stored are read, inflated and validated, and its body was then read and dropped so that the
/// connection could carry the next request: with 1,024 connections retrying at once, refusals took the CPU and the
/// collector stored 12 % of its capacity. Refused here, a batch costs the parsing of its head and a constant answer;
/// its body is never handed on, and its connection is closed, so a client that retries at once pays for a new
/// connection, as behind Envoy's overload manager or nginx's `limit_conn`.
///
/// A connection is closed as nginx's lingering close does it: the answer is written, the sending half shut, and
/// what the client still sends is dropped until it closes or ``lingerTime`` passes. Closing at once with unread
/// bytes in the socket would reset the connection, and a reset can destroy the answer before the client reads it.
final class IngestRefusalHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a closing connection's remaining input is read and dropped before the connection is closed anyway.
    static let lingerTime = TimeAmount.seconds(2)

    private let refusal: IngestRefusal
    /// Requests handed on whose answer is not written yet: while one is, an answer from here would come first.
    private var inProgress = 0
    /// Whether the answer being written says `Connection: close`.
    private var closesAfterAnswer = false
    /// Whether the connection is closing: nothing more it sends is handed on.
    private var closing = false
    private var inputClosed = false
    private var lingering: Scheduled<Void>?

    init(refusal: IngestRefusal) {
        self.refusal = refusal
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        if case .head(let head) = unwrapInboundIn(data) {
            if inProgress == 0, refusal.gate.isFull, IngestRefusal.isIngest(head) {
                refuse(context: context)
                return
            }
            inProgress += 1
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.headerFields[.connection] == "close" { closesAfterAnswer = true }
        case .body:
            break
        case .end:
            inProgress -= 1
            if closesAfterAnswer {
                closing = true
                let written = promise ?? context.eventLoop.makePromise()
                context.write(data, promise: written)
                written.futureResult.assumeIsolated().whenComplete { _ in self.linger(context: context) }
                return
            }
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed, closing {
            inputClosed = true
            if lingering != nil { context.close(promise: nil) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // What a closing connection still sends is not parsed for anyone: a framing error in it gets no answer.
        guard !closing else { return }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        lingering?.cancel()
        lingering = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        lingering?.cancel()
        lingering = nil
    }

    private func refuse(context: ChannelHandlerContext) {
        closing = true
        refusal.refused.increment()
        refusal.gate.noteRefused()
        context.write(wrapOutboundOut(.head(refusal.head())), promise: nil)
        context.write(wrapOutboundOut(.body(refusal.body)), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in self.linger(context: context) }
    }

    /// Shuts the sending half once the answer is written, then closes when the client does or the time is up.
    private func linger(context: ChannelHandlerContext) {
        guard context.channel.isActive, lingering == nil else { return }
        if inputClosed {
            context.close(promise: nil)
            return
        }
        context.close(mode: .output, promise: nil)
        lingering = context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingerTime) {
            context.close(promise: nil)
        }
    }
}

/// The answer ``IngestRefusalHandler`` gives a batch while the ingest queue is full, made once.
struct IngestRefusal: Sendable {
    let gate: IngestGate
    let refused: Counter
    let fields: HTTPFields
    let body: ByteBuffer

    /// - Parameters:
    ///   - gate: whose queue decides.
    ///   - refused: counts the batches refused.
    ///   - retryAfter: seconds for `Retry-After`.
    ///   - serverName: the `Server` header the router's answers carry.
    init(gate: IngestGate, refused: Counter, retryAfter: Int, serverName: String) {
        self.gate = gate
        self.refused = refused
        let error = APIError.ingestQueueFull(retryAfter: retryAfter)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The error body of APIError: two strings in a dictionary always encode.
        let bytes = (try? encoder.encode(["error": ["code": error.code, "message": error.message]])) ?? Data()
        body = ByteBuffer(bytes: bytes)
        fields = [
            .contentType: "application/json; charset=utf-8", .contentLength: String(bytes.count),
            .retryAfter: String(retryAfter), .connection: "close", .server: serverName,
        ]
    }

    /// The answer's head, dated now (RFC 9110 §6.6.1: an origin server with a clock dates its 4xx answers).
    func head() -> HTTPResponse {
        var fields = fields
        fields[.date] = HTTPDate.now()
        return HTTPResponse(status: .tooManyRequests, headerFields: fields)
    }

    /// Whether a request is a batch sent to `POST /v1/reports`.
    static func isIngest(_ head: HTTPRequest) -> Bool {
        guard head.method == .post, let path = head.path, path.hasPrefix("/v1/reports") else { return false }
        let rest = path.dropFirst("/v1/reports".count)
        return rest.isEmpty || rest.first == "?"
    }
}

/// The current time as an HTTP date (RFC 9110 §5.6.7), made once a second.
enum HTTPDate {
    private static let cache = Mutex<(second: Int, text: String)>((-1, ""))
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func now() -> String {
        let second = Int(Date().timeIntervalSince1970)
        return cache.withLock { cache in
            if cache.second != second { cache = (second, format(second)) }
            return cache.text
        }
    }

    static func format(_ second: Int) -> String {
        var time = time_t(second)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
