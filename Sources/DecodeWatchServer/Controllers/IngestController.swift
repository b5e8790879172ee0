import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchZlib
import Foundation
import Hummingbird
import Logging

/// `POST /v1/reports`: read, inflate, validate, aggregate and commit a batch, then answer 202 (docs/wire-format.md#answers).
struct IngestController<Context: RequestContext>: Sendable {
    let commits: GroupCommit
    let verifier: CredentialVerifier
    let pipeline: IngestPipeline
    let gate: IngestGate
    let metrics: IngestMetrics
    let readTimeout: Duration

    func addRoutes(to router: Router<Context>) {
        router.post("/v1/reports", use: ingest)
    }

    @Sendable func ingest(request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await process(request, context: context)
            metrics.duration.record(duration: ContinuousClock.now - started)
            return response
        } catch let error as APIError where error.status == .tooManyRequests {
            metrics.batches[.refused].increment()
            return try Self.closing(error, request, context)
        } catch {
            metrics.batches[.refused].increment()
            throw error
        }
    }

    /// A 429 that closes its connection (``IngestRefusalHandler`` closes it once written), before the body is read:
    /// a client retrying at once then pays for a new connection, and the body it sent is never read to make way for
    /// a next request on this one.
    private static func closing(_ error: APIError, _ request: Request, _ context: Context) throws -> Response {
        var response = try error.response(from: request, context: context)
        response.headers[.connection] = "close"
        return response
    }

    /// Identifies the app, admits it, then reads, validates and commits: every check that needs no
    /// body comes before the body is read, so a refused client costs no inflating or parsing.
    private func process(_ request: Request, context: Context) async throws -> Response {
        let key = try await authenticate(request)
        if let key { try admit(app: key.app ?? "") }
        let limits = pipeline.validator.limits
        let source = try await IngestBody.read(request, limits: limits, timeout: readTimeout)
        metrics.bytes[.compressed].increment(by: Int64(source.body.count))
        let batch: ValidatedBatch
        do {
            batch = try pipeline.validate(source, receivedAt: Date()) {
                metrics.bytes[.inflated].increment(by: Int64($0))
            }
        } catch let error as ZlibError {
            throw APIError.from(
                error, limits: limits, encoding: source.encoding == .deflate ? "deflate (zlib)" : "gzip")
        } catch let error as BatchError {
            throw APIError.from(error)
        }
        if let key, let keyApp = key.app, keyApp != batch.app.id {
            throw APIError(
                .forbidden, "wrong_app",
                "This ingest key belongs to app '\(keyApp)', not '\(batch.app.id.prefix(200))'; "
                    + "configure the app with its own key (`decodewatch keys create --app <app id>`).")
        }
        if key == nil { try admit(app: batch.app.id) }
        var answer = IngestAnswer(
            accepted: batch.accepted.count, rejected: batch.rejected, warnings: batch.warnings, duplicate: false)
        // Aggregated here, so that the reports are freed on the thread that made them before the wait for the commit,
        // not after it on whichever thread the task resumed on, which glibc's malloc handles far worse.
        // The body as received goes with it: a logged sink keeps it, a direct one drops it.
        let received = ReceivedBatch(pipeline.aggregate(consume batch), source: source)
        answer.duplicate = try await commits.commit(received) == .duplicate
        metrics.batches[answer.duplicate ? .duplicate : .stored].increment()
        if !answer.duplicate {
            metrics.reports[.accepted].increment(by: Int64(answer.accepted))
            metrics.reports[.rejected].increment(by: Int64(answer.rejected.count))
        }
        context.logger.info(
            answer.duplicate ? "Duplicate batch ignored" : "Batch stored",
            metadata: [
                "batch.id": "\(received.aggregate.batchID)", "app.id": "\(received.aggregate.appID)",
                "report.accepted": "\(answer.accepted)", "report.rejected": "\(answer.rejected.count)",
                "batch.warnings": "\(answer.warnings.count)",
            ])
        return try Response.json(answer, status: .accepted)
    }

    /// The ingest key of the request when keys are configured; `nil` when the collector is open.
    private func authenticate(_ request: Request) async throws -> Credential? {
        try await verifier.requiredCredential(
            .ingest, of: request,
            missing: APIError(
                .unauthorized, "ingest_key_required",
                "This collector needs an ingest key: send 'Authorization: Bearer <key>' "
                    + "(create one with `decodewatch keys create --app <app id>`)."),
            invalid: APIError(
                .unauthorized, "invalid_ingest_key",
                "The ingest key is unknown or revoked; check the key the app is configured with (`decodewatch keys list`)."
            ))
    }

    private func admit(app: String) throws {
        if let wait = gate.admit(app: app) {
            throw APIError(
                .tooManyRequests, "rate_limited",
                "App '\(app.prefix(200))' is over its rate limit; retry after \(wait) seconds.", retryAfter: wait)
        }
    }
}

/// The 202 body of docs/wire-format.md#answers. A duplicate gets the same numbers as the first delivery, so a client
/// that lost the first answer learns what was stored.
struct IngestAnswer: Codable, Sendable {
    var accepted: Int
    var rejected: [Rejection]
    /// Header values and `decodes` entries that were cut or dropped; the reports are unaffected.
    var warnings: [String]
    var duplicate: Bool
}

extension Response {
    /// A JSON response.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
