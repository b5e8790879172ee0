import Foundation
import Hummingbird
import Metrics
import NIOCore

/// The answer ``IngestRefusalHandler`` gives a batch while the ingest queue is full, made once.
struct IngestRefusal: Sendable {
    let gate: IngestGate
    let refused: Counter
    let fields: HTTPFields
    let body: ByteBuffer
    /// The shortest and longest hold of a refusal, in nanoseconds.
    let holds: ClosedRange<Int64>
    /// Longest hold of a refusal, when `Retry-After` is longer. Up to 5 s, a storm's clients are held rather than
    /// reconnecting: shorter holds made a storm's clients reconnect sooner, and the collector stored fewer batches
    /// (BENCHMARKS.md, "refusals held up to `Retry-After`").
    static let maxHold = TimeAmount.seconds(5)

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

extension APIError {
    /// The 429 of a full ingest queue, which ``IngestRefusalHandler`` writes.
    static func ingestQueueFull(retryAfter: Int) -> APIError {
        APIError(
            .tooManyRequests, "ingest_queue_full",
            "The collector's ingest queue is full; retry after \(retryAfter) seconds.", retryAfter: retryAfter)
    }
}
