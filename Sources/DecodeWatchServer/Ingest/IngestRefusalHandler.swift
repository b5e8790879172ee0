import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Keeps the ingest queue: a batch takes its place on the event loop as soon as its request head arrives and gives
/// it back once its answer is written; while the queue is full a batch is answered 429 from here. It also closes
/// each connection whose answer says `Connection: close` once that answer is written.
///
/// Under a retry storm a refusal that went through the router took a task on the cooperative pool, where the
/// batches being stored are read, inflated and validated, and its body was then read and dropped so that the
/// connection could carry the next request: with a thousand connections retrying at once, refusals took the CPU
/// and the collector stored a small part of its capacity (BENCHMARKS.md, "refusals held up to `Retry-After`"). Refused here, a batch costs the parsing of its head and a constant answer;
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
    /// Requests handed on whose answer is not written yet: while one is, an answer from here would come first.
    private var inProgress = 0
    /// Whether the first of them is a batch holding a place in the ingest queue. A batch is handed on only when no
    /// other request is in progress, so it is always the first, and the next answer written is its own.
    private var holdsPlace = false
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
            inProgress += 1
            context.fireChannelRead(data)
            return
        }
        guard inProgress == 0 else {
            deferred = [data]
            return
        }
        guard refusal.gate.enter() else {
            hold(context: context)
            return
        }
        inProgress = 1
        holdsPlace = true
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.headerFields[.connection] == "close" { closesAfterAnswer = true }
        case .body:
            break
        case .end:
            inProgress = max(0, inProgress - 1)
            leave()
            if inProgress == 0, deferred != nil {
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
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    /// Gives back the place of a batch whose answer will not be written, and cancels what waits.
    private func stop() {
        leave()
        deferred = nil
        holding?.cancel()
        holding = nil
        lingering?.cancel()
        lingering = nil
    }

    /// Hands on what waited for the request before it to be answered, as if it arrived now, and reads on.
    private func handOnDeferred(context: ChannelHandlerContext) {
        guard inProgress == 0, let parts = deferred else { return }
        deferred = nil
        for part in parts { channelRead(context: context, data: part) }
        // The async channel behind hands on what it was given at the end of a read.
        context.fireChannelReadComplete()
        guard deferred == nil, !closing else { return }
        // The client closed its sending half after what was deferred: the router learns it now, after those parts.
        if inputClosed { context.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
        context.read()
    }

    /// Gives back the queue place of the batch in progress, if it holds one.
    private func leave() {
        guard holdsPlace else { return }
        holdsPlace = false
        refusal.gate.leave()
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
