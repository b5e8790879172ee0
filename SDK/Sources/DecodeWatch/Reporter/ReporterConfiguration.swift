@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// Everything a ``Reporter`` needs to know: where to send, who is sending, and how much to keep.
///
/// A value type so it can be built from remote configuration; the kill switch can also be flipped
/// at run time with ``Reporter/setEnabled(_:)``.
public struct ReporterConfiguration: Sendable {
    /// The collector's base URL, e.g. `https://decodewatch.example.com`; batches go to `<collector>/v1/reports`.
    public var collectorURL: URL
    /// The app's ingest key, sent as `Authorization: Bearer <key>` with every upload when set
    /// (docs/wire-format.md#authentication).
    ///
    /// The collector's operator makes one per app with `decodewatch keys create --app <app id>`, which
    /// prints it once. It is not a secret in the strong sense: it ships inside the app, where anyone can
    /// read it. It only scopes ingest to one app (a key of another app gets 403) and lets the operator
    /// revoke it (401), so it can live in the app's configuration; no keychain needed. A collector without
    /// keys ignores it. Surrounding whitespace is trimmed; an empty key sends no header. The SDK never
    /// writes it to the spool or puts it in a ``ReporterEvent``.
    public var ingestKey: String?
    /// The app that decodes (`app` in every batch).
    public var app: AppInfo
    /// An opaque per-install id (`install_id`). When `nil` and a spool directory is set, one is
    /// made up once and kept in the spool directory (a file `install_id`); it is never replaced, so a file
    /// that cannot be read for a while (the device locked) leaves the batches of that while without one.
    public var installID: String?
    /// Where the app runs (`environment` in every batch): `production`, `staging`, `testflight`, … (1–64 characters
    /// of `A–Z a–z 0–9 . _ -`, docs/wire-format.md#environments). The collector counts each environment apart and
    /// filters by it, so debug runs and TestFlight do not mix with the App Store's numbers. Default:
    /// ``defaultEnvironment``.
    public var environment: String
    /// The kill switch: when `false`, nothing is captured, counted or sent.
    public var isEnabled: Bool
    /// The share of responses whose failures and decodes are recorded, from 0 to 1.
    ///
    /// Sampling is per response (see ``DecodeContext``), so the breaking rate stays unbiased; the
    /// counts the collector shows are then the sampled counts.
    public var sampleRate: Double
    /// How often ``Reporter/run()`` flushes.
    public var flushInterval: TimeInterval
    /// A flush starts by itself once this many distinct reports are buffered; also the most reports
    /// per batch (at most 1000, the collector's limit).
    public var maxReportsPerBatch: Int
    /// Most distinct reports kept in memory between flushes; more are dropped and counted
    /// (identical ones still fold into what is buffered).
    public var maxBufferedReports: Int
    /// Where unsent batches are kept across launches; `nil` keeps them in memory only.
    public var spoolDirectory: URL?
    /// The data protection class of the spool's files and the install id (Apple platforms; elsewhere ignored).
    ///
    /// The default, `.completeUntilFirstUserAuthentication`, lets an upload that runs while the device is locked
    /// (a background task after the first unlock) read them. With `.complete`, batches written while the app
    /// is open wait for the next unlock to be sent; a batch that cannot be read is kept, never deleted.
    public var fileProtection: FileProtectionType
    /// Most batches in the spool; the oldest are dropped first.
    public var maxSpooledBatches: Int
    /// Most bytes (compressed) in the spool; the oldest batches are dropped first.
    public var maxSpoolBytes: Int
    /// How uploads are retried: a short backoff after outages, a long one after refusals.
    public var retry: RetryPolicy
    /// Timeout of one upload request.
    public var requestTimeout: TimeInterval
    /// How snippets are redacted before they leave the device (docs/wire-format.md#redaction).
    public var redactor: Redactor
    /// In DEBUG builds, stop in the debugger on every captured failure, like the classic `Safe`.
    /// Off by default so that tests of failing payloads run.
    public var assertOnFailure: Bool
    /// Called for what the reporter does in the background (sent, refused, dropped batches, what the
    /// collector left out), for logs and metrics; called on an arbitrary thread, keep it quick.
    ///
    /// Forward ``ReporterEvent/batchRefused(batchID:status:code:message:retryIn:)`` and
    /// ``ReporterEvent/batchSentWithIssues(batchID:accepted:rejected:warnings:)`` to where a developer
    /// will see them: they mean reports are waiting or lost until someone changes something.
    public var onEvent: (@Sendable (ReporterEvent) -> Void)?

    /// Creates a configuration.
    /// - Parameters:
    ///   - collectorURL: the collector's base URL.
    ///   - app: the app that decodes.
    ///   - ingestKey: the app's ingest key (`decodewatch keys create --app A`), if the collector requires one.
    ///   - installID: an opaque per-install id; made up and kept in the spool directory when `nil`.
    ///   - environment: where the app runs; `debug` in DEBUG builds and `production` otherwise by default.
    ///   - isEnabled: the kill switch.
    ///   - sampleRate: the share of responses recorded, 0…1.
    ///   - flushInterval: seconds between flushes of ``Reporter/run()``.
    ///   - maxReportsPerBatch: size that triggers a flush, and most reports per batch (≤ 1000).
    ///   - maxBufferedReports: most distinct reports held in memory.
    ///   - spoolDirectory: where unsent batches survive a restart; `nil` for memory only.
    ///   - fileProtection: the data protection class of the spool's files.
    ///   - maxSpooledBatches: most batches kept unsent.
    ///   - maxSpoolBytes: most compressed bytes kept unsent.
    ///   - retry: the retry policy.
    ///   - requestTimeout: seconds before one upload request fails.
    ///   - redactor: how snippets are redacted.
    ///   - assertOnFailure: assert on every captured failure in DEBUG builds.
    ///   - onEvent: an observer of background work.
    public init(
        collectorURL: URL, app: AppInfo, ingestKey: String? = nil, installID: String? = nil,
        environment: String = ReporterConfiguration.defaultEnvironment, isEnabled: Bool = true,
        sampleRate: Double = 1, flushInterval: TimeInterval = 60, maxReportsPerBatch: Int = 200,
        maxBufferedReports: Int = 1000, spoolDirectory: URL? = ReporterConfiguration.defaultSpoolDirectory,
        fileProtection: FileProtectionType = .completeUntilFirstUserAuthentication, maxSpooledBatches: Int = 50,
        maxSpoolBytes: Int = 2 << 20, retry: RetryPolicy = RetryPolicy(),
        requestTimeout: TimeInterval = 30, redactor: Redactor = Redactor(), assertOnFailure: Bool = false,
        onEvent: (@Sendable (ReporterEvent) -> Void)? = nil
    ) {
        self.collectorURL = collectorURL
        self.app = app
        self.ingestKey = ingestKey
        self.installID = installID
        self.environment = environment
        self.isEnabled = isEnabled
        self.sampleRate = sampleRate
        self.flushInterval = flushInterval
        self.maxReportsPerBatch = maxReportsPerBatch
        self.maxBufferedReports = maxBufferedReports
        self.spoolDirectory = spoolDirectory
        self.fileProtection = fileProtection
        self.maxSpooledBatches = maxSpooledBatches
        self.maxSpoolBytes = maxSpoolBytes
        self.retry = retry
        self.requestTimeout = requestTimeout
        self.redactor = redactor
        self.assertOnFailure = assertOnFailure
        self.onEvent = onEvent
    }

    /// `debug` when the SDK is built for debugging (Xcode builds packages in the app's configuration, so a Debug
    /// build of the app), `production` otherwise. Set ``environment`` for TestFlight or staging builds.
    public static var defaultEnvironment: String {
        #if DEBUG
            EnvironmentName.debug
        #else
            EnvironmentName.production
        #endif
    }

    /// `<Application Support>/DecodeWatch/spool`: it survives launches and, unlike Caches, is never purged by
    /// the system while the app is not running; it is excluded from device backups.
    public static var defaultSpoolDirectory: URL? {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first?
            .appendingPathComponent("DecodeWatch", isDirectory: true)
            .appendingPathComponent("spool", isDirectory: true)
    }

    /// The ingest URL, `<collector>/v1/reports`.
    var ingestURL: URL {
        collectorURL.appendingPathComponent("v1").appendingPathComponent("reports")
    }

    /// Reports per batch, within the collector's limit.
    var batchSize: Int { min(max(maxReportsPerBatch, 1), 1000) }
}
