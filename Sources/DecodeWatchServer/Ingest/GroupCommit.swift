import DecodeWatchCore
import DecodeWatchStore
import Metrics

/// Commits the batches that arrive together in one transaction (a group commit) to the collector's ``BatchSink``.
///
/// There is no timer: when no commit is running, a batch is committed at once, alone; while one runs,
/// the batches that arrive wait for it to end and then go in the next commit together, up to
/// ``maxBatches``. Under load, commits grow with the load and each batch waits at most for the commit
/// ahead of it; idle, nothing waits. Each caller returns after the commit that holds its batch, with its
/// own outcome; a failed commit throws to every caller in it and stores none of their batches.
///
/// Each commit has a deadline, ``defaultTimeout``: a store call that never returns would otherwise hold
/// every later batch behind it. Past the deadline the commit's callers get ``StoreError`` `unavailable`
/// (503, send again) and the next commit starts; the store's own deadlines normally end it sooner.
actor GroupCommit {
    /// Most batches in one commit.
    static let maxBatches = 64
    /// How long one commit may take before its callers are answered unavailable.
    static let defaultTimeout: Duration = .seconds(15)

    private let sink: any BatchSink
    private let batchesPerCommit: Recorder
    private let commitDuration: Timer
    private var waiting: [(batch: ReceivedBatch, caller: CheckedContinuation<IngestOutcome, any Error>)] = []
    private var committing = false
    private let timeout: Duration

    /// - Parameters:
    ///   - sink: where each commit goes, and so when a batch is acknowledged.
    ///   - metrics: where commit sizes and durations are recorded.
    ///   - timeout: how long one commit may take (``defaultTimeout``).
    init(sink: any BatchSink, metrics: any MetricsFactory, timeout: Duration = defaultTimeout) {
        self.sink = sink
        self.timeout = timeout
        batchesPerCommit = Recorder(label: MetricLabel.batchesPerCommit, factory: metrics)
        commitDuration = Timer(label: MetricLabel.commitDuration, factory: metrics)
    }

    /// Stores a batch in the next commit.
    /// - Returns: whether it was stored or had been stored before.
    /// - Throws: what the store threw for the commit that held it; nothing of that commit was stored.
    func commit(_ batch: ReceivedBatch) async throws -> IngestOutcome {
        try await withCheckedThrowingContinuation { caller in
            waiting.append((batch, caller))
            guard !committing else { return }
            committing = true
            Task { await drain() }
        }
    }

    /// Commits what waits, commit after commit, until nothing does.
    private func drain() async {
        while !waiting.isEmpty {
            let group = Array(waiting.prefix(Self.maxBatches))
            waiting.removeFirst(group.count)
            batchesPerCommit.record(Double(group.count))
            let started = ContinuousClock.now
            do {
                defer { commitDuration.record(duration: ContinuousClock.now - started) }
                let sink = sink
                let batches = group.map(\.batch)
                let timeout = timeout
                let outcomes = try await withDeadline(
                    timeout,
                    expired: {
                        StoreError(
                            .unavailable,
                            "Storage did not finish the commit within \(timeout.components.seconds) s; "
                                + "retry (a batch stored after all is answered as a duplicate).")
                    }
                ) { try await sink.commit(batches) }
                for (entry, outcome) in zip(group, outcomes) { entry.caller.resume(returning: outcome) }
            } catch {
                for entry in group { entry.caller.resume(throwing: error) }
            }
        }
        committing = false
    }
}
