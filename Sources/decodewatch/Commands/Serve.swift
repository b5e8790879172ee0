import ArgumentParser
import DecodeWatchCore
import DecodeWatchServer
import DecodeWatchStore
import Foundation
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
        @Option(help: "Send the digest of each period of this length (e.g. 24h, aligned on UTC) to --digest-webhook.")
        var digestEvery: String?
        @Option(help: "Slack-compatible webhook URL the scheduled digest is posted to, once per period.")
        var digestWebhook: String?

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
            if (digestEvery == nil) != (digestWebhook == nil) {
                throw ValidationError("--digest-every and --digest-webhook go together.")
            }
            if let digestEvery {
                guard let seconds = TimeReference.duration(digestEvery), seconds >= 3600,
                    seconds.truncatingRemainder(dividingBy: 3600) == 0
                else { throw ValidationError("--digest-every '\(digestEvery)' must be whole hours, e.g. 24h or 7d.") }
            }
            if let digestWebhook, URL(string: digestWebhook)?.host == nil {
                throw ValidationError("--digest-webhook '\(digestWebhook)' must be an http(s) URL.")
            }
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
            var services: [any Service] = [app]
            if let every = digestEvery.flatMap(TimeReference.duration),
                let url = digestWebhook.flatMap(URL.init(string:))
            {
                guard let digestStore = reportStore as? any DigestStore else {
                    throw ValidationError("This database backend cannot produce digests.")
                }
                let period = DigestScheduler.period(at: Date(), every: every)
                let job = DigestJob(period: period, webhook: WebhookSender(url: url))
                services.append(DigestScheduler(store: digestStore, every: every, template: job, logger: logger))
            }
            let group = ServiceGroup(
                configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
        }
    }
}
