@_spi(WireInternals) import DecodeWatchWire
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Spools batches and posts them to the collector, one pass at a time, oldest first.
///
/// An actor so that the spool and the backoff state have one owner; passes are additionally
/// serialized by a gate because an actor is re-entered at every `await` of an HTTP request.
///
/// Three kinds of wait, all in memory, so a new reporter (a relaunch, or a configuration update with
/// a new key) tries at once:
/// - after a network error, 5xx, 408 or 429, the whole pass waits the short backoff, because the
///   collector or the network is in trouble;
/// - after a 401 or 403, the whole pass waits the long backoff, because every batch carries the
///   same key and would be refused alike;
/// - after another 4xx, only that batch waits the long backoff, so one batch the collector cannot
///   take does not hold up the others.
actor Uploader {
    /// How one upload attempt ended.
    enum Outcome: Equatable {
        /// A 2xx: the collector has the batch. The answer is `nil` when its body could not be read.
        case sent(status: Int, answer: CollectorAnswer.Accepted?)
        /// A 4xx other than 408 and 429: waiting alone will not help; someone has to change something.
        case refused(status: Int, code: String?, message: String)
        /// A network error, a 5xx, a 408 or a 429: try again later.
        case retry(reason: String, retryAfter: TimeInterval?)
    }

    /// A batch waiting out the long backoff after the collector refused it.
    private struct Hold {
        var refusals: Int
        var until: Date
    }

    private let configuration: ReporterConfiguration
    private let session: URLSession
    private let statistics: Locked<ReporterStatistics>
    /// The trimmed ingest key, `nil` when none is configured.
    private let ingestKey: String?
    private var spool: BatchSpool
    private var consecutiveFailures = 0
    /// Consecutive 401 and 403 answers, for the long backoff of the whole pass.
    private var keyRefusals = 0
    private var notBefore: Date?
    /// Batches refused with another 4xx, by spool entry name.
    private var holds: [String: Hold] = [:]
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(
        configuration: ReporterConfiguration, session: URLSession, statistics: Locked<ReporterStatistics>,
        files: SpoolFiles
    ) {
        self.configuration = configuration
        self.session = session
        self.statistics = statistics
        let key = configuration.ingestKey?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        self.ingestKey = key.isEmpty ? nil : key
        self.spool = BatchSpool(
            directory: configuration.spoolDirectory, maxBatches: configuration.maxSpooledBatches,
            maxBytes: configuration.maxSpoolBytes, protection: configuration.fileProtection, files: files)
    }

    /// The batches waiting in the spool, oldest first, including those written since the last look.
    func spooled() -> [BatchSpool.Entry] {
        announceDropped(spool.refresh())
        return spool.entries
    }

    /// Stores batches in the spool, then, when `upload` is set, sends everything spooled.
    ///
    /// The spool's directory is read here, on the actor, never on the thread that made the reporter.
    /// - Parameters:
    ///   - batches: new batches; stored before any network I/O so that a crash loses nothing.
    ///   - upload: whether to send now (a shutting-down reporter only stores).
    func deliver(_ batches: [PendingBatch], upload: Bool) async {
        announceDropped(spool.refresh())
        for batch in batches {
            announceDropped(spool.append(batchID: batch.batchID, reportCount: batch.reportCount, body: batch.body))
        }
        guard upload else { return }
        await acquire()
        defer { release() }
        await sendSpooled()
    }

    /// Counts and announces batches the spool dropped to stay within its budget.
    private func announceDropped(_ dropped: [BatchSpool.Entry]) {
        for entry in dropped {
            statistics.withLock {
                $0.droppedBatches += 1
                $0.droppedBatchReports += entry.reportCount
            }
            configuration.onEvent?(.batchDropped(batchID: entry.batchID))
        }
    }

    private func sendSpooled() async {
        if let notBefore, notBefore > Date() { return }
        let names = Set(spool.entries.map(\.name))
        holds = holds.filter { names.contains($0.key) }
        for entry in spool.entries {
            if let hold = holds[entry.name], hold.until > Date() { continue }
            guard spool.contains(entry) else { continue }
            let body: Data
            switch spool.body(of: entry) {
            case .data(let data):
                body = data
            case .missing:
                // Deleted from outside (the app cleared its files): nothing is left to send.
                spool.remove(entry)
                continue
            case .unreadable:
                // Locked under data protection: the batch stays and a later flush tries it again.
                statistics.withLock { $0.unreadableAttempts += 1 }
                configuration.onEvent?(.batchUnreadable(batchID: entry.batchID))
                continue
            }
            var attempt = 0
            attempts: while true {
                attempt += 1
                let outcome = await send(body)
                switch outcome {
                case .sent(let status, let answer):
                    spool.remove(entry)
                    consecutiveFailures = 0
                    keyRefusals = 0
                    notBefore = nil
                    holds[entry.name] = nil
                    announceSent(entry, status: status, answer: answer)
                    break attempts
                case .refused(let status, let code, let message):
                    consecutiveFailures = 0
                    statistics.withLock { $0.refusedAttempts += 1 }
                    let delay: TimeInterval
                    let keyRefused = status == 401 || status == 403
                    if keyRefused {
                        keyRefusals += 1
                        delay = configuration.retry.delay(afterRefusals: keyRefusals)
                        notBefore = Date().addingTimeInterval(delay)
                    } else {
                        let refusals = (holds[entry.name]?.refusals ?? 0) + 1
                        delay = configuration.retry.delay(afterRefusals: refusals)
                        holds[entry.name] = Hold(refusals: refusals, until: Date().addingTimeInterval(delay))
                    }
                    configuration.onEvent?(
                        .batchRefused(
                            batchID: entry.batchID, status: status, code: code.map(scrub), message: scrub(message),
                            retryIn: delay))
                    // Every batch carries the same key: the others would be refused alike.
                    if keyRefused { return }
                    break attempts
                case .retry(let reason, let retryAfter):
                    consecutiveFailures += 1
                    statistics.withLock { $0.failedAttempts += 1 }
                    let delay = configuration.retry.delay(afterFailures: consecutiveFailures, retryAfter: retryAfter)
                    configuration.onEvent?(
                        .uploadFailed(batchID: entry.batchID, reason: scrub(reason), retryIn: delay))
                    let inline =
                        attempt < configuration.retry.maxAttemptsPerFlush
                        && delay <= configuration.retry.maxInlineDelay && !Task.isCancelled
                    if inline, (try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))) != nil {
                        continue attempts
                    }
                    // Later flushes only spool until the wait has passed; the batch stays on disk.
                    notBefore = Date().addingTimeInterval(delay)
                    return
                }
            }
        }
    }

    /// Counts a stored batch and tells the app, with what the collector left out or changed.
    private func announceSent(_ entry: BatchSpool.Entry, status: Int, answer: CollectorAnswer.Accepted?) {
        let rejected = (answer?.rejected ?? []).map { Rejection(index: $0.index, error: scrub($0.error)) }
        let warnings = (answer?.warnings ?? []).map(scrub)
        statistics.withLock {
            $0.sentBatches += 1
            $0.rejectedReports += rejected.count
        }
        if rejected.isEmpty, warnings.isEmpty {
            configuration.onEvent?(.batchSent(batchID: entry.batchID, status: status))
        } else {
            let accepted = answer?.accepted ?? max(entry.reportCount - rejected.count, 0)
            configuration.onEvent?(
                .batchSentWithIssues(batchID: entry.batchID, accepted: accepted, rejected: rejected, warnings: warnings)
            )
        }
    }

    /// Takes the ingest key out of text that reaches the app, in case an answer quotes the request.
    private func scrub(_ text: String) -> String {
        guard let ingestKey else { return text }
        return text.replacingOccurrences(of: ingestKey, with: "<redacted>")
    }

    /// Posts one compressed batch.
    func send(_ body: Data) async -> Outcome {
        var request = URLRequest(url: configuration.ingestURL, timeoutInterval: configuration.requestTimeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("deflate", forHTTPHeaderField: "Content-Encoding")
        if let ingestKey {
            request.setValue("Bearer \(ingestKey)", forHTTPHeaderField: "Authorization")
        }
        request.httpBody = body
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                return .retry(reason: "not an HTTP response", retryAfter: nil)
            }
            let status = http.statusCode
            let retryAfter = ReporterConfiguration.RetryPolicy.parseRetryAfter(
                http.value(forHTTPHeaderField: "Retry-After"))
            switch status {
            case 200..<300:
                return .sent(status: status, answer: CollectorAnswer.Accepted.parse(data))
            case 408, 429:
                return .retry(reason: "HTTP \(status)", retryAfter: retryAfter)
            case 400..<500:
                let failure = CollectorAnswer.Failure.parse(data, status: status)
                return .refused(status: status, code: failure.code, message: failure.message)
            default:
                return .retry(reason: "HTTP \(status)", retryAfter: retryAfter)
            }
        } catch {
            return .retry(reason: String(describing: error), retryAfter: nil)
        }
    }

    private func acquire() async {
        if busy {
            await withCheckedContinuation { waiters.append($0) }
        } else {
            busy = true
        }
    }

    private func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
