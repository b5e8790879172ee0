import DecodeWatchCore
import Foundation

/// Everything the collector can be told at start. The defaults are those of SPEC §1.
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

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, limits: IngestLimits = IngestLimits(),
        routeTemplates: [RouteTemplate] = [], sensitiveKeys: [String] = Redactor.defaultSensitiveKeys,
        maxConcurrentIngests: Int = 64, appBatchesPerMinute: Int? = nil, retryAfterSeconds: Int = 5
    ) {
        self.host = host
        self.port = port
        self.limits = limits
        self.routeTemplates = routeTemplates
        self.sensitiveKeys = sensitiveKeys
        self.maxConcurrentIngests = maxConcurrentIngests
        self.appBatchesPerMinute = appBatchesPerMinute
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// Whether a host name or address is on the loopback interface.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
