import DecodeWatchStore
import Hummingbird
import Prometheus

/// `GET /healthz`, `GET /readyz` and `GET /metrics` (docs/api.md#health-and-metrics).
struct OperationsController<Context: RequestContext>: Sendable {
    /// Where ingest commits: `/readyz` proves it can commit now.
    let sink: any BatchSink
    let registry: PrometheusCollectorRegistry

    /// `/healthz` and `/readyz`: always open, for load balancers and orchestrators.
    func addProbes(to router: Router<Context>) {
        router.get("/healthz") { _, _ in try Response.json(["status": "ok"]) }
        router.get("/readyz", use: ready)
    }

    /// `/metrics`, on the open router or behind the read token.
    func addMetrics(to router: some RouterMethods<Context>) {
        router.get("/metrics", use: metrics)
    }

    /// How long `/readyz` waits for storage: probes commonly give up after a second, and a probe that times out
    /// tells an orchestrator less than a 503 with its reason.
    static var readinessLimit: Duration { .milliseconds(800) }

    @Sendable func ready(request: Request, context: Context) async throws -> Response {
        do {
            try await answer(within: Self.readinessLimit) { [sink] in try await sink.checkReadiness() }
        } catch {
            context.logger.warning("Not ready", metadata: ["error": "\(error)"])
            throw APIError(
                .serviceUnavailable, "storage_unavailable", "Storage cannot commit a write now: \(error)", retryAfter: 5
            )
        }
        return try Response.json(["status": "ready"])
    }

    @Sendable func metrics(request: Request, context: Context) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
    }
}
