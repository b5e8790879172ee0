import Foundation
import Hummingbird
import Metrics
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Keeps the ingest queue: a batch takes its place on the event loop as soon as its request head arrives and gives
/// it back once its answer is written; while the queue is full a batch is answered 429 from here. It also closes
/// each connection whose answer says `Connection: close` once that answer is written.
///
/// Under a retry storm a refusal that went through the router took a task on the cooperative pool, where the
/// batches being stored are read, inflated and validated, and its body was then read and dropped so that the
/// connection could carry the next request: with 1,024 connections retrying at once, refusals took the CPU and the
/// collector stored 12 % of its capacity. Refused here, a batch costs the parsing of its head and a constant answer;
/// its body is never read, and its connection is closed, so a client that retries at once pays for a new
/// connection, as behind Envoy's overload manager or nginx's `limit_conn`. Its place is taken here too, not later
/// in the router: heads that found the queue with room while the router had not yet let earlier ones in were half
/// of a storm's refusals, each through the router.
///
/// A refused batch's answer waits a while (``IngestRefusal/holdTime()``, within what `Retry-After` asks the client to
/// wait anyway), and nothing is read from its connection meanwhile: a client that retries at once comes back every
/// few seconds instead of as fast as the collector can refuse it, and its connection waits open, costing nothing,
/// instead of in the listen backlog, where a probe's connection would queue behind it. The waits are spread at
/// random, so that the clients of one storm do not all come back at the same moment.
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
    /// For each request handed on whose answer is not written yet, in order: whether it holds a place in the ingest
    /// queue. While one is in progress, an answer from here would come first.
    private var inProgress: [Bool] = []
    /// What arrived after a batch's head that came while another request was in progress (HTTP pipelining): handed
    /// on once that request is answered, when there is room for the batch; nothing more is read meanwhile.
    private var deferred: [NIOAny]?
    /// Whether the answer being written says `Connection: close`.
    private var closesAfterAnswer = false
    /// Whether the connection is closing: nothing more it sends is handed on.
    private var closing = false
    private var inputClosed = false
    private var lingering: Scheduled<Void>?
    /// The refusal of a batch that waits out its hold.
    private var holding: Scheduled<Void>?

    init(refusal: IngestRefusal) {
        self.refusal = refusal
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        if deferred != nil {
            deferred?.append(data)
            return
        }
        guard case .head(let head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        guard IngestRefusal.isIngest(head) else {
            inProgress.append(false)
            context.fireChannelRead(data)
            return
        }
        guard inProgress.isEmpty else {
            deferred = [data]
            return
        }
        guard refusal.gate.enter() else {
            hold(context: context)
            return
        }
        inProgress.append(true)
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.headerFields[.connection] == "close" { closesAfterAnswer = true }
        case .body:
            break
        case .end:
            if !inProgress.isEmpty, inProgress.removeFirst() { refusal.gate.leave() }
            if inProgress.isEmpty, deferred != nil {
                context.eventLoop.assumeIsolated().execute { self.handOnDeferred(context: context) }
            }
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
        if let event = event as? ChannelEvent, event == .inputClosed, closing || deferred != nil {
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
        leaveAll()
        holding?.cancel()
        holding = nil
        lingering?.cancel()
        lingering = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        leaveAll()
        holding?.cancel()
        holding = nil
        lingering?.cancel()
        lingering = nil
    }

    /// Hands on what waited for the request before it to be answered, as if it arrived now, and reads on.
    private func handOnDeferred(context: ChannelHandlerContext) {
        guard inProgress.isEmpty, let parts = deferred else { return }
        deferred = nil
        for part in parts { channelRead(context: context, data: part) }
        // The async channel behind hands on what it was given at the end of a read.
        context.fireChannelReadComplete()
        guard deferred == nil, !closing else { return }
        // The client closed its sending half after what was deferred: the router learns it now, after those parts.
        if inputClosed { context.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
        context.read()
    }

    /// Gives back the places of the batches whose answers will not be written.
    private func leaveAll() {
        for admitted in inProgress where admitted { refusal.gate.leave() }
        inProgress = []
        deferred = nil
    }

    /// Refuses the batch after ``IngestRefusal/holdTime()``, reading nothing from its connection meanwhile.
    private func hold(context: ChannelHandlerContext) {
        closing = true
        holding = context.eventLoop.assumeIsolated().scheduleTask(in: refusal.holdTime()) {
            self.holding = nil
            self.refuse(context: context)
            context.read()
        }
    }

    func read(context: ChannelHandlerContext) {
        guard holding == nil, deferred == nil else { return }
        context.read()
    }

    private func refuse(context: ChannelHandlerContext) {
        refusal.refused.increment()
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
    /// The shortest and longest hold of a refusal, in nanoseconds.
    let holds: ClosedRange<Int64>
    /// Longest hold of a refusal, when `Retry-After` is longer.
    static let maxHold = TimeAmount.seconds(3)

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
        let longest = min(Self.maxHold, .seconds(Int64(max(0, retryAfter)))).nanoseconds
        holds = longest / 2...longest
    }

    /// How long a refusal waits before it is written: between half of `Retry-After` (at most ``maxHold``) and all
    /// of it, at random.
    func holdTime() -> TimeAmount {
        .nanoseconds(Int64.random(in: holds))
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
