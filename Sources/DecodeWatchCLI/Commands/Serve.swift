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
                Once an ingest key exists (`decodewatch keys create`), ingest needs one; once a read token \
                exists (`decodewatch tokens create`), reading does. Without both, anyone who reaches the \
                collector could send or read reports, so it then only listens on a loopback address unless \
                --allow-unauthenticated-remote is given. It logs at start which mode it runs in.
                """)

        /// The configuration the options start from, so that each default is named once, in `ServerConfiguration`.
        private static let defaults = ServerConfiguration()

        @Option(help: "Address to listen on.") var host = defaults.host
        @Option(help: "Port to listen on (0 picks a free one).") var port = defaults.port
        @OptionGroup var store: StoreOptions
        @OptionGroup var databaseOnly: DatabaseOnlyOptions
        @OptionGroup var logging: LoggingOptions
        @Option(name: .customLong("route"), help: "A route template such as 'GET /v2/posts/{slug}' (repeatable).")
        var routes: [String] = []
        @Option(help: "Largest request body as sent, in bytes.") var maxBodyBytes = defaults.limits.maxCompressedBytes
        @Option(help: "Largest body after inflating, in bytes.") var maxInflatedBytes = defaults.limits.maxInflatedBytes
        @Option(help: "Most reports per batch.") var maxReports = defaults.limits.maxReports
        @Option(help: "Ingest requests processed at once before answering 429.")
        var maxConcurrentIngests = defaults.maxConcurrentIngests
        @Option(help: "Batches per minute one app may send before answering 429 (default: no limit).")
        var appBatchesPerMinute: Int?
        @Flag(help: "Listen on a non-loopback address even without ingest keys and read tokens.")
        var allowUnauthenticatedRemote = false
        @Option(help: "Seconds a request body may take to arrive before the answer is 408.")
        var readTimeout = Int(defaults.readTimeout.components.seconds)
        @Option(help: "Connections open at once; more wait in the listen backlog.")
        var maxConnections = defaults.maxConnections
        @Option(
            help: ArgumentHelp(
                "When a batch is acknowledged: 'logged' once it is in the store's log (folded into the rollups in the "
                    + "background), 'direct' once its rollups are written.", valueName: "logged|direct"))
        var ingestMode: IngestMode = defaults.ingestMode
        @Flag(help: "Serve /metrics to anyone who reaches it; otherwise it needs a read token once one exists.")
        var publicMetrics = defaults.publicMetrics
        /// Kept so that deployments that pass it still start: what it asked for is the default now.
        @Flag(help: ArgumentHelp("Deprecated: /metrics needs a read token by default.", visibility: .hidden))
        var metricsRequireToken = false
        @Option(
            help: """
                Breaking fields with the most reports in the last hour exposed at /metrics, with their counts and \
                rates, refreshed every 30 s; 0 for none (at most \(FieldsQuery.maxLimit)).
                """)
        var metricsTopFields = defaults.fieldMetricsLimit
        @Option(
            name: .customLong("redact-key"),
            help: "A key whose values are redacted from snippets and messages, added to the defaults (repeatable).")
        var redactKeys: [String] = []
        @Option(
            help: "Send the digest of each period of this length (e.g. 24h, aligned on UTC) to --digest-webhook.",
            transform: DurationArgument.parser("--digest-every", mustBe: "whole hours, e.g. 24h or 7d.") {
                $0 >= 3600 && $0.truncatingRemainder(dividingBy: 3600) == 0
            })
        var digestEvery: DurationArgument?
        @Option(help: "Slack-compatible webhook URL the scheduled digest is posted to, once per period.")
        var digestWebhook: String?
        @Option(
            help: """
                How long reports are kept (e.g. 90d, at least 1d), or 'off' to keep them forever. Older data \
                is deleted every hour in small transactions; per-minute counts are kept for 7 days either way. \
                (default: \(defaultRetention))
                """,
            transform: { text in
                text == "off"
                    ? nil
                    : try DurationArgument.parser(
                        "--retention", mustBe: "a duration of at least 1d, such as 90d, or 'off'."
                    ) { $0 >= 86_400 }(text)
            })
        var retention: DurationArgument? = defaultRetention
        @Option(
            help: """
                How often the alert rules (`decodewatch alerts`) are evaluated, e.g. 30s; 1s at least, \
                1m at most, so an alert goes out within a minute. (default: \(defaultAlertInterval))
                """,
            transform: DurationArgument.parser("--alert-interval", mustBe: "1s to 1m, e.g. 30s.") {
                (1...60).contains($0)
            })
        var alertInterval = defaultAlertInterval
        @Option(
            help: """
                How long a group stays quiet for a rule after alerting, unless it is resolved and comes back. \
                (default: \(defaultAlertCooldown))
                """,
            transform: DurationArgument.parser("--alert-cooldown", mustBe: "a duration of at least 1m, e.g. 1h.") {
                $0 >= 60
            })
        var alertCooldown = defaultAlertCooldown
        @Option(help: "The URL the dashboard is reachable at, e.g. https://decodewatch.example.com; alerts link to it.")
        var publicURL: String?
        @Option(
            help: ArgumentHelp(
                "The GitHub repository the dashboard's \"Open a GitHub issue\" button opens a group's issue in "
                    + "(needs a token: --github-token-file or GITHUB_TOKEN).", valueName: "owner/repo"))
        var githubRepo: String?
        @OptionGroup var github: GitHubOptions

        /// How long reports are kept unless `--retention` says otherwise.
        static let defaultRetention = DurationArgument(seconds: 90 * 86_400)
        /// How often the alert rules are evaluated unless `--alert-interval` says otherwise.
        static let defaultAlertInterval = DurationArgument(seconds: 30)
        /// How long a group stays quiet after alerting unless `--alert-cooldown` says otherwise.
        static let defaultAlertCooldown = DurationArgument(seconds: AlertEvaluator.defaultCooldown)
        /// How long a graceful shutdown may take before the services are cancelled.
        static let maximumGracefulShutdown: Duration = .seconds(20)
        /// How long cancelled services may take to end before the process aborts.
        static let maximumCancellation: Duration = .seconds(5)

        /// The longest `--read-timeout`: a day, far past any body's upload, and within what a timer can count.
        static let maxReadTimeout = 86_400

        func validate() throws {
            for route in routes where RouteTemplate(route) == nil {
                throw ValidationError("--route '\(route)' must look like 'GET /v2/posts/{slug}'.")
            }
            guard (1...Self.maxReadTimeout).contains(readTimeout) else {
                throw ValidationError("--read-timeout must be 1–\(Self.maxReadTimeout) seconds.")
            }
            guard (1...ServerConfiguration.maxConnectionsLimit).contains(maxConnections) else {
                throw ValidationError(
                    "--max-connections must be 1–\(ServerConfiguration.maxConnectionsLimit) (each connection is a file descriptor)."
                )
            }
            guard (0...65535).contains(port) else { throw ValidationError("--port must be 0–65535.") }
            guard (0...FieldsQuery.maxLimit).contains(metricsTopFields) else {
                throw ValidationError("--metrics-top-fields must be 0–\(FieldsQuery.maxLimit).")
            }
            if metricsRequireToken && publicMetrics {
                throw ValidationError("--public-metrics and --metrics-require-token (the default now) contradict.")
            }
            if (digestEvery == nil) != (digestWebhook == nil) {
                throw ValidationError("--digest-every and --digest-webhook go together.")
            }
            if let publicURL, URL(string: publicURL)?.host == nil {
                throw ValidationError(
                    "--public-url '\(publicURL)' must be an http(s) URL such as https://decodewatch.example.com.")
            }
            if let digestWebhook, URL(string: digestWebhook)?.host == nil {
                throw ValidationError("--digest-webhook '\(digestWebhook)' must be an http(s) URL.")
            }
            if githubRepo == nil && github.isGiven {
                throw ValidationError("--github-token-file and --github-api-url go with --github-repo OWNER/REPO.")
            }
            _ = try githubRepo.map { try github.client(repository: $0, flag: "--github-repo") }
        }

        func run() async throws {
            // Before the store is opened, so that a port in use leaves no new database behind.
            try await Self.checkPortIsFree(host: host, port: port)
            let logger = logging.makeLogger()
            if metricsRequireToken {
                logger.warning("--metrics-require-token is deprecated: /metrics needs a read token by default")
            }
            let registry = PrometheusCollectorRegistry()
            let metrics = PrometheusMetricsFactory.decodewatch(registry: registry)
            MetricsSystem.bootstrap(metrics)
            let (reportStore, storeService) = try store.open(logger: logger, creating: true)
            var limits = IngestLimits()
            limits.maxCompressedBytes = maxBodyBytes
            limits.maxInflatedBytes = maxInflatedBytes
            limits.maxReports = maxReports
            let configuration = ServerConfiguration(
                host: host, port: port, limits: limits, routeTemplates: routes.compactMap(RouteTemplate.init),
                sensitiveKeys: Redactor.defaultSensitiveKeys + redactKeys, maxConcurrentIngests: maxConcurrentIngests,
                appBatchesPerMinute: appBatchesPerMinute, readTimeout: .seconds(readTimeout),
                maxConnections: maxConnections, publicMetrics: publicMetrics,
                fieldMetricsLimit: metricsTopFields, ingestMode: ingestMode,
                github: try githubRepo.map { try github.client(repository: $0, flag: "--github-repo") },
                publicURL: publicURL.flatMap(URL.init(string:)))
            let app = buildApplication(
                configuration: configuration, store: reportStore, registry: registry, logger: logger,
                onServerRunning: { port in logger.notice("Collector listening", metadata: ["http.port": "\(port)"]) },
                beforeServerStarts: { try await checkAccessMode(reportStore, logger: logger) })
            // The store's service (PostgreSQL's pool, SQLite's checkpoint) comes first: it starts before and
            // shuts down after what uses it, and the access check runs on the pool before the collector listens.
            var services: [any Service] = [storeService, app]
            if let every = digestEvery?.seconds, let url = digestWebhook.flatMap(URL.init(string:)) {
                let period = DigestScheduler.period(at: Date(), every: every)
                let job = DigestJob(period: period, webhook: WebhookSender(url: url))
                services.append(DigestScheduler(store: reportStore, every: every, template: job, logger: logger))
            }
            let alerts = AlertEvaluator(
                store: reportStore, cooldown: alertCooldown.seconds, publicURL: publicURL.flatMap(URL.init(string:)),
                metrics: AlertMetrics(factory: metrics), logger: logger)
            services.append(AlertScheduler(evaluator: alerts, interval: alertInterval.seconds))
            // Runs with --retention off too: per-minute counts are always trimmed after a week.
            services.append(RetentionJob(store: reportStore, retention: retention?.seconds, logger: logger))
            // Whatever ends the group (a signal, a refused start, a failed service) shuts it down gracefully,
            // in reverse order: the pool stops last, after every job that may still be waiting on it. Cancelling
            // all at once could stop the pool under a job's pending query, which then never returns.
            var groupConfiguration = ServiceGroupConfiguration(
                services: services.map {
                    .init(
                        service: $0, successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup)
                }, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            // Storage deadlines end every request within seconds, so a graceful shutdown normally takes no
            // longer; these bound it anyway, whatever state the database is in, well inside an orchestrator's
            // usual 30 s grace period: past the first, services are cancelled; past both, the process aborts.
            groupConfiguration.maximumGracefulShutdownDuration = Self.maximumGracefulShutdown
            groupConfiguration.maximumCancellationDuration = Self.maximumCancellation
            do {
                try await ServiceGroup(configuration: groupConfiguration).run()
            } catch let error where PortInUseError.matches(error) {
                throw PortInUseError(port: port)
            }
        }

        /// Logs who may send and read, and refuses a non-loopback address while either is open to anyone.
        private func checkAccessMode(_ store: any CredentialStore, logger: Logger) async throws {
            let keys = try await store.hasCredentials(kind: .ingest)
            let tokens = try await store.hasCredentials(kind: .read)
            let metadata: Logger.Metadata = ["http.host": "\(host)", "db.location": "\(self.store.location)"]
            logger.notice(
                keys ? "Ingest needs an ingest key" : "No ingest keys: accepting unauthenticated ingest",
                metadata: metadata)
            logger.notice(
                tokens
                    ? "Reading needs a read token" : "No read tokens: the query API is open to anyone who reaches it",
                metadata: metadata)
            guard !ServerConfiguration.isLoopback(host), !(keys && tokens), !allowUnauthenticatedRemote else { return }
            let open = [
                keys ? nil : "no ingest keys exist, so anyone could send reports",
                tokens ? nil : "no read tokens exist, so anyone could read snippets",
            ].compactMap { $0 }
            throw ValidationError(
                "Refusing to listen on \(host): \(open.joined(separator: " and ")). "
                    + "Create them with `decodewatch keys create --app APP` and `decodewatch tokens create --name NAME`, "
                    + "listen on 127.0.0.1 behind a proxy, or pass --allow-unauthenticated-remote.")
        }
    }
}

extension IngestMode: ExpressibleByArgument {}
