import DecodeWatchCore
import DecodeWatchStore
import Hummingbird
import Logging
import Prometheus

/// Builds the collector: ingest, query API, health and metrics on one HTTP server.
///
/// The `serve` command runs what this returns; tests build the same application on a free port.
/// - Parameters:
///   - configuration: address, limits and policies.
///   - store: where batches are committed and summaries read.
///   - registry: the Prometheus registry served at `/metrics`.
///   - logger: the application logger.
///   - onServerRunning: called with the bound port once the server listens (useful with port 0).
/// - Returns: the application, ready to be run as a `Service`.
public func buildApplication(
    configuration: ServerConfiguration,
    store: any ReportStore,
    registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
    logger: Logger = Logger(label: "decodewatch"),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: ErrorMiddleware(retryAfter: configuration.retryAfterSeconds))
    let normalizer = EndpointNormalizer(templates: configuration.routeTemplates)
    IngestController(
        store: store,
        validator: BatchValidator(limits: configuration.limits, normalizer: normalizer),
        redactor: Redactor(sensitiveKeys: configuration.sensitiveKeys),
        gate: IngestGate(
            maxConcurrent: configuration.maxConcurrentIngests, batchesPerMinute: configuration.appBatchesPerMinute),
        metrics: IngestMetrics(registry: registry),
        retryAfter: configuration.retryAfterSeconds
    ).addRoutes(to: router)
    FieldsController(store: store, normalizer: normalizer).addRoutes(to: router)
    OperationsController(store: store, registry: registry).addRoutes(to: router)
    return Application(
        router: router,
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "decodewatch"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger)
}
