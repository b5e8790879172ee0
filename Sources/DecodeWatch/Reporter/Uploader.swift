import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Spools batches and posts them to the collector, one pass at a time, oldest first.
///
/// An actor so that the spool and the backoff state have one owner; passes are additionally
/// serialized by a gate because an actor is re-entered at every `await` of an HTTP request.
actor Uploader {
    /// How one upload attempt ended.
    enum Outcome: Equatable {
        /// A 2xx: the collector has the batch.
        case sent(status: Int)
        /// A 4xx other than 408 and 429: resending the same bytes cannot succeed.
        case rejected(status: Int, body: String)
        /// A network error, a 5xx, a 408 or a 429: try again later.
        case retry(reason: String, retryAfter: TimeInterval?)
    }

    private let configuration: ReporterConfiguration
    private let session: URLSession
    private let statistics: Locked<ReporterStatistics>
    private var spool: BatchSpool
    private var consecutiveFailures = 0
    private var notBefore: Date?
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(configuration: ReporterConfiguration, session: URLSession, statistics: Locked<ReporterStatistics>) {
        self.configuration = configuration
        self.session = session
        self.statistics = statistics
        self.spool = BatchSpool(
            directory: configuration.spoolDirectory, maxBatches: configuration.maxSpooledBatches,
            maxBytes: configuration.maxSpoolBytes)
    }

    /// The batches waiting in the spool, oldest first.
    var spooled: [BatchSpool.Entry] { spool.entries }

    /// Stores batches in the spool, then, when `upload` is set, sends everything spooled.
    /// - Parameters:
    ///   - batches: new batches; stored before any network I/O so that a crash loses nothing.
    ///   - upload: whether to send now (a shutting-down reporter only stores).
    func deliver(_ batches: [PendingBatch], upload: Bool) async {
        for batch in batches {
            let dropped = spool.append(batchID: batch.batchID, reportCount: batch.reportCount, body: batch.body)
            for entry in dropped {
                statistics.withLock {
                    $0.droppedBatches += 1
                    $0.droppedBatchReports += entry.reportCount
                }
                configuration.onEvent?(.batchDropped(batchID: entry.batchID))
            }
        }
        guard upload else { return }
        await acquire()
        defer { release() }
        await sendSpooled()
    }

    private func sendSpooled() async {
        if let notBefore, notBefore > Date() { return }
        for entry in spool.entries {
            guard spool.contains(entry), let body = spool.body(of: entry) else {
                spool.remove(entry)
                continue
            }
            var attempt = 0
            attempts: while true {
                attempt += 1
                let outcome = await send(body)
                switch outcome {
                case .sent(let status):
                    spool.remove(entry)
                    consecutiveFailures = 0
                    notBefore = nil
                    statistics.withLock { $0.sentBatches += 1 }
                    configuration.onEvent?(.batchSent(batchID: entry.batchID, status: status))
                    break attempts
                case .rejected(let status, let text):
                    spool.remove(entry)
                    statistics.withLock { $0.rejectedBatches += 1 }
                    configuration.onEvent?(.batchRejected(batchID: entry.batchID, status: status, body: text))
                    break attempts
                case .retry(let reason, let retryAfter):
                    consecutiveFailures += 1
                    statistics.withLock { $0.failedAttempts += 1 }
                    let delay = configuration.retry.delay(afterFailures: consecutiveFailures, retryAfter: retryAfter)
                    configuration.onEvent?(.uploadFailed(batchID: entry.batchID, reason: reason, retryIn: delay))
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

    /// Posts one compressed batch.
    func send(_ body: Data) async -> Outcome {
        var request = URLRequest(url: configuration.ingestURL, timeoutInterval: configuration.requestTimeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("deflate", forHTTPHeaderField: "Content-Encoding")
        if let key = configuration.ingestKey {
            request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        }
        request.httpBody = body
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                return .retry(reason: "not an HTTP response", retryAfter: nil)
            }
            let status = http.statusCode
            let retryAfter = RetryPolicy.parseRetryAfter(http.value(forHTTPHeaderField: "Retry-After"))
            switch status {
            case 200..<300:
                return .sent(status: status)
            case 408, 429:
                return .retry(reason: "HTTP \(status)", retryAfter: retryAfter)
            case 400..<500:
                return .rejected(status: status, body: String(decoding: data.prefix(1000), as: UTF8.self))
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
