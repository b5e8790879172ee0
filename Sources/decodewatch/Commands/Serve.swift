import ArgumentParser
import DecodeWatchCore
import DecodeWatchServer
import Logging
import Metrics
import Prometheus
import ServiceLifecycle

extension DecodeWatchCommand {
    /// `decodewatch serve`: runs the collector until SIGTERM or SIGINT.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the collector: ingest, query API, health and metrics.",
            discussion: """
                With no ingest keys configured the collector accepts unauthenticated ingest, so it only \
                listens on a loopback address unless --allow-unauthenticated-remote is given.
                """)

        @Option(help: "Address to listen on.") var host = "127.0.0.1"
        @Option(help: "Port to listen on (0 picks a free one).") var port = 8080
        @OptionGroup var store: StoreOptions
        @OptionGroup var logging: LoggingOptions
        @Option(name: .customLong("route"), help: "A route template such as 'GET /v2/posts/{slug}' (repeatable).")
        var routes: [String] = []
        @Option(help: "Largest request body as sent, in bytes.") var maxBodyBytes = IngestLimits().maxCompressedBytes
        @Option(help: "Largest body after inflating, in bytes.") var maxInflatedBytes = IngestLimits().maxInflatedBytes
        @Option(help: "Most reports per batch.") var maxReports = IngestLimits().maxReports
        @Option(help: "Ingest requests processed at once before answering 429.") var maxConcurrentIngests = 64
        @Option(help: "Batches per minute one app may send before answering 429 (default: no limit).")
        var appBatchesPerMinute: Int?
        @Flag(help: "Accept unauthenticated ingest on a non-loopback address.")
        var allowUnauthenticatedRemote = false

        func validate() throws {
            for route in routes where RouteTemplate(route) == nil {
                throw ValidationError("--route '\(route)' must look like 'GET /v2/posts/{slug}'.")
            }
            if !ServerConfiguration.isLoopback(host) && !allowUnauthenticatedRemote {
                throw ValidationError(
                    "Refusing to listen on \(host): no ingest keys are configured, so anyone could send reports. "
                        + "Listen on 127.0.0.1 behind a proxy, or pass --allow-unauthenticated-remote.")
            }
            guard (0...65535).contains(port) else { throw ValidationError("--port must be 0–65535.") }
        }

        func run() async throws {
            let logger = logging.makeLogger()
            let registry = PrometheusCollectorRegistry()
            MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
            let reportStore = try store.openStore(logger: logger)
            var limits = IngestLimits()
            limits.maxCompressedBytes = maxBodyBytes
            limits.maxInflatedBytes = maxInflatedBytes
            limits.maxReports = maxReports
            let configuration = ServerConfiguration(
                host: host, port: port, limits: limits, routeTemplates: routes.compactMap(RouteTemplate.init),
                maxConcurrentIngests: maxConcurrentIngests, appBatchesPerMinute: appBatchesPerMinute)
            logger.notice(
                "No ingest keys configured: accepting unauthenticated ingest",
                metadata: ["http.host": "\(host)", "db.path": "\(store.path)"])
            let app = buildApplication(
                configuration: configuration, store: reportStore, registry: registry, logger: logger,
                onServerRunning: { port in logger.notice("Collector listening", metadata: ["http.port": "\(port)"]) })
            let group = ServiceGroup(
                configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
        }
    }
}
