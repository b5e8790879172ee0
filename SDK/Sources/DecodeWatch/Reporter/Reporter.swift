@_spi(WireInternals) import DecodeWatchWire
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Collects decoding failures and decode counts, and ships them to the collector in batches.
///
/// Recording is synchronous and cheap: a failure takes a lock, folds into an identical report if
/// there is one (so a snippet is made only for the first), and returns; decoding never waits for
/// disk or network. Everything slow happens in ``flush()``, which ``run()`` calls on a timer and
/// which starts by itself when ``ReporterConfiguration/maxReportsPerBatch`` distinct reports are
/// buffered.
///
/// A flush turns the buffer into ``ReportBatch``es with fresh UUID `batch_id`s, compresses them,
/// writes them to the spool, and posts every spooled batch, oldest first. A batch leaves the spool
/// only after a 2xx, or when the spool is full (oldest first, counted and announced). Network
/// errors, 5xx, 408 and 429 keep it for later with a short exponential backoff and the server's
/// `Retry-After`; other 4xx (a wrong ingest key, a batch the collector will not take) keep it too,
/// with a long backoff and a ``ReporterEvent/batchRefused(batchID:status:code:message:retryIn:)``
/// event, because they pass only when someone fixes the key, the app or the collector.
///
/// Decode counts (`decodes`, the denominator of the breaking rate) are counted automatically by
/// ``Foundation/JSONDecoder/decode(_:from:endpoint:reporter:)``; apps that set a ``DecodeContext``
/// by hand call ``DecodeContext/countDecode()``.
public final class Reporter: Sendable {
    /// The configuration the reporter was made with.
    public let configuration: ReporterConfiguration

    private struct State: Sendable {
        var buffer: ReportBuffer
        var isEnabled: Bool
        var flushScheduled = false
    }

    private let state: Locked<State>
    private let stats = Locked(ReporterStatistics())
    private let uploader: Uploader
    private let files: SpoolFiles
    /// The install id once known: configured, or read from (or made in) the spool directory on first need.
    private let installID = Locked<String??>(nil)

    /// Creates a reporter. Cheap enough for the main thread at launch: it touches no file and no network;
    /// the spool (with what an earlier launch left unsent) is read by the first flush.
    /// - Parameters:
    ///   - configuration: where and how to report.
    ///   - session: the URL session for uploads; by default an ephemeral one.
    public convenience init(configuration: ReporterConfiguration, session: URLSession? = nil) {
        self.init(configuration: configuration, session: session, files: .system)
    }

    /// Creates a reporter whose spool reads its files through `files`.
    init(configuration: ReporterConfiguration, session: URLSession?, files: SpoolFiles) {
        self.configuration = configuration
        self.files = files
        self.state = Locked(
            State(
                buffer: ReportBuffer(capacity: max(configuration.maxBufferedReports, 1)),
                isEnabled: configuration.isEnabled))
        let urlSession = session ?? URLSession(configuration: .ephemeral)
        self.uploader = Uploader(configuration: configuration, session: urlSession, statistics: stats, files: files)
    }

    /// Whether the reporter captures, counts and sends: the run-time kill switch.
    public var isEnabled: Bool { state.withLock { $0.isEnabled } }

    /// Turns the reporter on or off at run time, e.g. from remote configuration.
    /// - Parameter enabled: `false` stops capturing, counting and sending; what is buffered stays.
    public func setEnabled(_ enabled: Bool) {
        state.withLock { $0.isEnabled = enabled }
    }

    /// Counters of what the reporter has done.
    public var statistics: ReporterStatistics { stats.withLock { $0 } }

    /// The reports buffered since the last flush, folded, in arrival order.
    public func pendingReports() -> [Report] {
        state.withLock { $0.buffer.snapshot }
    }

    /// The decode counts buffered since the last flush.
    public func pendingDecodes() -> [DecodeCount] {
        state.withLock { $0.buffer.decodeCounts }
    }

    /// The `batch_id`s waiting in the spool, oldest first.
    public func spooledBatchIDs() async -> [String] {
        await uploader.spooled().map(\.batchID)
    }

    /// Records a report made by the app itself, folding it into an identical buffered one.
    ///
    /// The wrappers call this for you; use it for failures found outside `Decodable`.
    /// - Parameter report: the report; its `endpoint` is brought to grouping form (docs/wire-format.md#endpoint), or to
    ///   `UNKNOWN /path` or `UNKNOWN /` when it is not `"METHOD /path"`, so the collector never refuses it.
    public func record(_ report: Report) {
        var report = report
        report.endpoint = EndpointNormalizer().reportingForm(of: report.endpoint)
        record(report, snippet: { [report] in report.snippet })
    }

    /// Counts decoded responses of an endpoint, failed or not.
    ///
    /// Prefer ``DecodeContext/countDecode()``, which respects sampling. This one always counts.
    /// - Parameters:
    ///   - endpoint: `"METHOD /path"`; normalized to grouping form before counting.
    ///   - count: how many responses.
    public func countDecode(endpoint: String, count: Int = 1) {
        guard count > 0 else { return }
        let normalized = EndpointNormalizer().reportingForm(of: endpoint)
        state.withLock {
            guard $0.isEnabled else { return }
            $0.buffer.countDecode(endpoint: normalized, count: count)
        }
    }

    /// Sends what is buffered and everything spooled, and returns when the pass is over.
    ///
    /// Batches that could not be sent stay in the spool for a later flush or launch. Does nothing
    /// while the reporter is disabled.
    public func flush() async {
        guard isEnabled else { return }
        await uploader.deliver(makeBatches(), upload: true)
    }

    /// Writes what is buffered to the spool now, on the calling thread, for an app about to be suspended.
    ///
    /// iOS may end a suspended app without warning, and up to a flush interval of failures lives only in
    /// memory. Call this when the app goes to the background: it encodes, compresses and writes the buffer (a
    /// few milliseconds) and returns; the next flush, or the next launch, sends what it wrote. It is the one call
    /// backgrounding needs (``flush()`` would start an upload the system may suspend halfway):
    ///
    /// ```swift
    /// // UIKit, in the scene delegate (or applicationDidEnterBackground in the app delegate):
    /// func sceneDidEnterBackground(_ scene: UIScene) { reporter.persist() }
    ///
    /// // SwiftUI (iOS 15 and later), on the App's root view:
    /// .onReceive(NotificationCenter.default.publisher(for: UIApplication.didEnterBackgroundNotification)) { _ in
    ///     reporter.persist()
    /// }
    /// ```
    ///
    /// Without a ``ReporterConfiguration/spoolDirectory`` the batches are handed to the next flush instead.
    public func persist() {
        guard isEnabled else { return }
        let batches = makeBatches()
        guard !batches.isEmpty else { return }
        let unwritten = batches.filter { batch in
            configuration.spoolDirectory.flatMap {
                BatchSpool.write(
                    batchID: batch.batchID, reportCount: batch.reportCount, body: batch.body, into: $0,
                    protection: configuration.fileProtection, files: files)
            } == nil
        }
        if !unwritten.isEmpty {
            Task { [uploader] in await uploader.deliver(unwritten, upload: false) }
        }
    }

    /// Flushes every ``ReporterConfiguration/flushInterval`` until the task is cancelled.
    ///
    /// Resends what an earlier launch left in the spool first. On cancellation (a graceful
    /// shutdown) it stores what is buffered in the spool without touching the network, so the next
    /// launch sends it. Meant to be run by an app's long-lived task or wrapped as a service.
    public func run() async {
        if isEnabled { await uploader.deliver([], upload: true) }
        let interval = UInt64(max(configuration.flushInterval, 0.001) * 1_000_000_000)
        while !Task.isCancelled {
            do {
                try await Task.sleep(nanoseconds: interval)
            } catch {
                break
            }
            await flush()
        }
        await uploader.deliver(makeBatches(), upload: false)
    }

    /// Whether the next response should be recorded: the kill switch and the sample rate.
    func samples() -> Bool {
        let rate = configuration.sampleRate
        guard rate > 0, isEnabled else { return false }
        return rate >= 1 || Double.random(in: 0..<1) < rate
    }

    /// Counts a failure into an identical one already buffered, before anything else is built for it.
    /// - Returns: `true` when nothing more is to be done (it folded, or the reporter is disabled).
    func fold(_ key: FoldKey) -> Bool {
        let (enabled, folded) = state.withLock { ($0.isEnabled, $0.isEnabled && $0.buffer.fold(key)) }
        if folded { stats.withLock { $0.recordedFailures += 1 } }
        return !enabled || folded
    }

    /// Records a failure; the snippet is only made when the report is the first of its kind.
    func record(_ report: Report, snippet: () -> String?) {
        let key = FoldKey(report)
        let folded: Bool? = state.withLock {
            guard $0.isEnabled else { return nil }
            return report.count == 1 && $0.buffer.fold(key)
        }
        guard let folded else { return }
        stats.withLock { $0.recordedFailures += report.count }
        if folded { return }
        var complete = report
        complete.snippet = snippet()
        let (outcome, startFlush): (ReportBuffer.Outcome, Bool) = state.withLock {
            let outcome = $0.buffer.insert(complete)
            let start = !$0.flushScheduled && $0.buffer.count >= configuration.batchSize
            if start { $0.flushScheduled = true }
            return (outcome, start)
        }
        if outcome == .dropped {
            stats.withLock { $0.droppedReports += 1 }
            configuration.onEvent?(.reportDropped)
        }
        if startFlush {
            Task { await self.flush() }
        }
    }

    /// Empties the buffer into encoded batches of at most ``ReporterConfiguration/maxReportsPerBatch`` reports.
    private func makeBatches() -> [PendingBatch] {
        let (reports, decodes) = state.withLock {
            $0.flushScheduled = false
            return $0.buffer.drain()
        }
        guard !reports.isEmpty || !decodes.isEmpty else { return [] }
        let installID = resolvedInstallID()
        let size = configuration.batchSize
        var chunks = stride(from: 0, to: reports.count, by: size).map {
            Array(reports[$0..<min($0 + size, reports.count)])
        }
        if chunks.isEmpty { chunks = [[]] }
        let now = Date()
        return chunks.enumerated().compactMap { offset, chunk in
            let batch = ReportBatch(
                batchID: UUID().uuidString.lowercased(), sentAt: now, app: configuration.app, sdk: .decodeWatch,
                installID: installID, environment: configuration.environment, decodes: offset == 0 ? decodes : [],
                reports: chunk)
            return try? PendingBatch(batch)
        }
    }

    /// The configured install id, or the one kept in the spool directory.
    ///
    /// Read once it can be read, and made only when its file is missing. While the file exists but cannot be
    /// read (the device locked under data protection), batches go without one and the next batch tries again:
    /// a fresh id then would count this install twice.
    private func resolvedInstallID() -> String? {
        installID.withLock { known in
            if let known { return known }
            guard let id = configuration.installID ?? storedInstallID() else { return nil }
            known = .some(id)
            return id
        }
    }

    /// The install id kept in the spool directory, made the first time; `nil` when there is no directory, or
    /// while the file cannot be read.
    private func storedInstallID() -> String? {
        guard let directory = configuration.spoolDirectory else { return nil }
        let file = directory.appendingPathComponent("install_id")
        switch files.load(file) {
        case .data(let data):
            if let id = Self.installID(in: data) { return id }
            return makeInstallID(at: file, replacing: true)  // an empty file holds no id to keep
        case .unreadable:
            return nil
        case .missing:
            // Another reporter of the app may write it first: then its id is the install's.
            return makeInstallID(at: file, replacing: false)
                ?? { if case .data(let data) = files.load(file) { Self.installID(in: data) } else { nil } }()
        }
    }

    /// Makes an install id and keeps it in `file`; `nil` when it could not be written.
    private func makeInstallID(at file: URL, replacing: Bool) -> String? {
        let id = UUID().uuidString.lowercased()
        do {
            try files.createDirectory(file.deletingLastPathComponent())
            try files.save(Data(id.utf8), to: file, protection: configuration.fileProtection, replacing: replacing)
            return id
        } catch {
            return nil
        }
    }

    /// The id an `install_id` file holds, without surrounding whitespace; `nil` when it is empty.
    private static func installID(in data: Data) -> String? {
        let id = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return id.isEmpty ? nil : id
    }
}
