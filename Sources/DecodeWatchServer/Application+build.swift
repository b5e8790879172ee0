import DecodeWatchCore
import DecodeWatchStore
import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle

/// Builds the collector: ingest, query API, dashboard, health and metrics on one HTTP server.
///
/// The `serve` command runs what this returns; tests build the same application on a free port.
/// - Parameters:
///   - configuration: address, limits and policies.
///   - store: where batches are committed and summaries read.
///   - registry: the Prometheus registry served at `/metrics`, where the application's metrics are kept.
///   - logger: the application logger.
///   - onServerRunning: called with the bound port once the server listens (useful with port 0).
///   - beforeServerStarts: runs inside the application's service, before the server listens; when it throws,
///     the server never listens and the application ends with its error. Services started before the
///     application in the same group (the store's connection pool) are available to it.
/// - Returns: the application, ready to be run as a `Service`.
public func buildApplication(
    configuration: ServerConfiguration,
    store: any CollectorStore,
    registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
    logger: Logger = Logger(label: "decodewatch"),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
    beforeServerStarts: @escaping @Sendable () async throws -> Void = {}
) -> some ApplicationProtocol {
    let factory = PrometheusMetricsFactory.decodewatch(registry: registry)
    let normalizer = EndpointNormalizer(templates: configuration.routeTemplates)
    // The data path: socket → IngestController (read, inflate, validate, aggregate) → GroupCommit → the sink
    // chosen here → rows (docs/ARCHITECTURE.md#the-data-path).
    let pipeline = IngestPipeline(
        validator: BatchValidator(limits: configuration.limits, normalizer: normalizer),
        redactor: Redactor(sensitiveKeys: configuration.sensitiveKeys))
    let sink = batchSink(configuration.ingestMode, store: store, pipeline: pipeline, metrics: factory, logger: logger)
    let router = Router(context: CollectorRequestContext.self)
    router.add(middleware: ErrorMiddleware(retryAfter: configuration.retryAfterSeconds))
    let verifier = CredentialVerifier(store: store, cacheDuration: configuration.credentialCacheSeconds)
    let settled = SettledReadsMiddleware<CollectorRequestContext>(sink: sink)
    let readers = router.group().add(middleware: ReadAccessMiddleware(verifier: verifier))
    // What reads the rollups waits for the batches acknowledged before it; credentials, rules and metrics do not.
    let rollupReaders = readers.group().add(middleware: settled)
    let gate = IngestGate(
        maxConcurrent: configuration.maxConcurrentIngests, batchesPerMinute: configuration.appBatchesPerMinute)
    let metrics = IngestMetrics(factory: factory)
    let refusal = IngestRefusal(
        gate: gate, refused: metrics.batches[.refused], retryAfter: configuration.retryAfterSeconds,
        serverName: serverName)
    IngestController(
        commits: GroupCommit(sink: sink, metrics: factory),
        verifier: verifier,
        pipeline: pipeline,
        gate: gate,
        metrics: metrics,
        readTimeout: configuration.readTimeout
    ).addRoutes(to: router)
    FieldsController(store: store, normalizer: normalizer).addRoutes(to: rollupReaders)
    CheckController(store: store).addRoutes(to: rollupReaders)
    GroupActionsController(store: store).addRoutes(to: rollupReaders)
    AlertsController(store: store).addRoutes(to: readers)
    ContractsController(store: store).addRoutes(to: readers)
    CredentialsController(store: store).addRoutes(to: readers)
    TokenController(verifier: verifier).addRoutes(to: readers)
    // The dashboard checks read access itself: a viewer without a token is sent to sign in, not given JSON.
    DashboardController(
        store: store, sessions: store, verifier: verifier, normalizer: normalizer,
        issues: configuration.github.map {
            GroupIssueOpener(store: store, github: $0, dashboard: configuration.publicURL)
        }
    ).addRoutes(to: router.group().add(middleware: settled))
    let operations = OperationsController<CollectorRequestContext>(sink: sink, registry: registry)
    operations.addProbes(to: router)
    if configuration.publicMetrics {
        operations.addMetrics(to: router)
    } else {
        operations.addMetrics(to: readers)
    }
    var services: [any Service] = [IdleMemoryRelease(gate: gate, store: store)]
    if configuration.fieldMetricsLimit > 0 {
        services.append(
            FieldMetrics(
                store: store, sink: sink, limit: configuration.fieldMetricsLimit,
                window: configuration.fieldMetricsWindow,
                interval: configuration.fieldMetricsInterval, factory: factory, logger: logger))
    }
    OpenFileLimit.fit(connections: configuration.maxConnections, logger: logger)
    var app = Application(
        router: router,
        // Refuses batches while the ingest queue is full before they reach the router, and closes refused connections.
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [IngestRefusalHandler(refusal: refusal)],
                idleTimeout: TimeAmount(configuration.idleTimeout))),
        // The listen backlog holds as many connections as may be open (Linux caps it at net.core.somaxconn): when a
        // storm's clients all reconnect at once after their 429s, none is dropped, and a probe's connection is not
        // dropped with them to wait for the client's SYN retry (1 s, then 3 s) behind a full backlog of 256.
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: serverName,
            backlog: min(max(256, configuration.maxConnections), ServerConfiguration.maxConnectionsLimit),
            availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections, logger: logger)),
        services: services,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger)
    app.beforeServerStarts(perform: beforeServerStarts)
    return app
}

/// The `Server` header of every answer.
private let serverName = "decodewatch"

/// The sink ingest commits to: with ``IngestMode/logged``, the store's log of acknowledged batches, folded into the
/// rollups in the background, many batches per transaction: a commit costs mostly the cells it touches, which batches
/// sent together share, and an acknowledgement never waits behind it. Batches a stopped collector left in the log go
/// through the same pipeline again (``IngestPipeline/rebuild(_:receivedAt:)``). With ``IngestMode/direct``, or when
/// the log cannot be opened, each batch is acknowledged after its rollups are written.
private func batchSink(
    _ mode: IngestMode, store: any CollectorStore, pipeline: IngestPipeline, metrics: any MetricsFactory,
    logger: Logger
) -> any BatchSink {
    guard mode == .logged else { return DirectBatchSink(store: store) }
    do {
        return try store.loggedSink(pipeline: pipeline, metrics: metrics)
    } catch {
        logger.error("Acknowledging batches after their rollups are written", metadata: ["error": "\(error)"])
        return DirectBatchSink(store: store)
    }
}
