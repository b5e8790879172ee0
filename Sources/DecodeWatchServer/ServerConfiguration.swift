import DecodeWatchCore
import Foundation

/// Everything the collector can be told at start. The defaults are those of docs/wire-format.md#limits.
public struct ServerConfiguration: Sendable {
    /// Address to listen on.
    public var host: String
    /// Port to listen on; 0 picks a free one.
    public var port: Int
    /// Size, ratio and count limits of ingest.
    public var limits: IngestLimits
    /// Operator-defined routes matched before the generic endpoint rules.
    public var routeTemplates: [RouteTemplate]
    /// Key fragments whose values are redacted from snippets.
    public var sensitiveKeys: [String]
    /// Ingest requests processed at once; more are answered 429 with `Retry-After`.
    public var maxConcurrentIngests: Int
    /// Batches per minute one app may send; `nil` for no limit. Over it: 429 with `Retry-After`.
    public var appBatchesPerMinute: Int?
    /// Seconds a client is told to wait after a 429 or 503.
    public var retryAfterSeconds: Int
    /// How long a request body may take to arrive before the answer is 408 and its slot is freed.
    public var readTimeout: Duration
    /// How long a connection may stay idle before it is closed.
    public var idleTimeout: Duration
    /// Connections open at once; past it new connections wait in the listen backlog. The default leaves room for a
    /// retry storm of 1,024 clients, each held up to `Retry-After` before its 429, with probes still let in.
    public var maxConnections: Int
    /// The most ``maxConnections`` may be: Linux's default ceiling of open files per process (`fs.nr_open`).
    public static let maxConnectionsLimit = 1 << 20
    /// Whether `/metrics` stays open to anyone who reaches it; otherwise it needs a read token of any scope once
    /// one exists, like the query API, since its labels name apps, endpoints and fields.
    public var publicMetrics: Bool
    /// How long an answer about a key or token is reused; a revoked one stops working within it.
    public var credentialCacheSeconds: TimeInterval
    /// How many breaking fields `/metrics` exposes, most reports first (docs/api.md#field-metrics); 0 for none.
    public var fieldMetricsLimit: Int
    /// Seconds of reports the field metrics count, ending at each refresh.
    public var fieldMetricsWindow: TimeInterval
    /// How often the field metrics are read from the store.
    public var fieldMetricsInterval: Duration
    /// When a batch is acknowledged: once in the store's log of acknowledged batches (the default), or once its
    /// rollups are written.
    public var ingestMode: IngestMode
    /// The repository the dashboard's "Open a GitHub issue" button opens a group's issue in (docs/cli.md#issue);
    /// `nil` shows no button.
    public var github: GitHubIssues?
    /// The dashboard's public address, linked from the issues it opens; `nil` for no link.
    public var publicURL: URL?

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, limits: IngestLimits = IngestLimits(),
        routeTemplates: [RouteTemplate] = [], sensitiveKeys: [String] = Redactor.defaultSensitiveKeys,
        maxConcurrentIngests: Int = 64, appBatchesPerMinute: Int? = nil, retryAfterSeconds: Int = 5,
        readTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(75), maxConnections: Int = 4096,
        publicMetrics: Bool = false, credentialCacheSeconds: TimeInterval = 2, fieldMetricsLimit: Int = 50,
        fieldMetricsWindow: TimeInterval = 3600, fieldMetricsInterval: Duration = .seconds(30),
        ingestMode: IngestMode = .logged, github: GitHubIssues? = nil, publicURL: URL? = nil
    ) {
        self.host = host
        self.port = port
        self.limits = limits
        self.routeTemplates = routeTemplates
        self.sensitiveKeys = sensitiveKeys
        self.maxConcurrentIngests = maxConcurrentIngests
        self.appBatchesPerMinute = appBatchesPerMinute
        self.retryAfterSeconds = retryAfterSeconds
        self.readTimeout = readTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.publicMetrics = publicMetrics
        self.credentialCacheSeconds = credentialCacheSeconds
        self.fieldMetricsLimit = fieldMetricsLimit
        self.fieldMetricsWindow = fieldMetricsWindow
        self.fieldMetricsInterval = fieldMetricsInterval
        self.ingestMode = ingestMode
        self.github = github
        self.publicURL = publicURL
    }

    /// Whether a host name or address is on the loopback interface.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}

/// When the collector acknowledges a batch (docs/ARCHITECTURE.md#ingest).
public enum IngestMode: String, Sendable, CaseIterable {
    /// Once the batch, as received, is in the store's log of acknowledged batches; the batches are folded into the
    /// rollups in the background, many per transaction, and reads wait for those acknowledged before them.
    case logged
    /// Once the batch's rollups are written, in a group commit of the batches that arrive together.
    case direct
}
