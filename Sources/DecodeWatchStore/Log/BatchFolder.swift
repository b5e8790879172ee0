import DecodeWatchCore
import Foundation
import Logging
import Metrics

/// Folds acknowledged batches into the rollups in the background, up to the log's
/// ``BatchLog/batchesPerFold`` per transaction, whatever the store: the one folder of every ``BatchLog``.
///
/// A commit's cost is mostly the cells it touches, and batches sent close together share most of them, so a
/// transaction of many batches costs far less per batch than one of a few. The batches wait in memory, folded,
/// and in the ``BatchLog`` as sent; each fold removes them from the log. Reads wait for the batches acknowledged
/// before them (``settle()``), so an acknowledged batch is in every answer. What collectors that stopped left in
/// the log is folded at start and every ``orphanSweep`` after.
package actor BatchFolder {
    /// Most batches waiting in memory, and most bytes of their samples (each group's latest snippet and message,
    /// redacted and cut: they are most of a folded batch's size).
    /// Past either, acknowledging waits for a write to make room.
    package struct Bounds: Sendable {
        /// `nil`: 1,000, or two folds' worth (``BatchLog/batchesPerFold``) where that is more, so that batches
        /// keep being acknowledged while a full fold is written.
        package var batches: Int?
        package var sampleBytes = 64 << 20

        package init(batches: Int? = nil, sampleBytes: Int = 64 << 20) {
            self.batches = batches
            self.sampleBytes = sampleBytes
        }
    }
    /// How long a failed write waits before it is tried again.
    static let retryDelay = Duration.seconds(1)
    /// How long a fold waits after the previous one for more batches, unless a reader waits or a full fold's worth
    /// does: at moderate load batches arrive a few at a time, and a fold of many costs far less per batch.
    static let foldSpacing = Duration.milliseconds(20)

    /// How often the log is searched for batches that stopped collectors left.
    static let orphanSweep = Duration.seconds(1)

    private let log: any BatchLog
    private let bounds: Bounds
    /// The log's ``BatchLog/batchesPerFold``.
    private let perFold: Int
    /// Most batches waiting (``Bounds/batches``).
    private let maxWaiting: Int
    private let logger: Logger
    private var waiting: [LoggedBatch] = []
    private var waitingSampleBytes = 0
    private var writing = false
    /// Batches queued and written since the start: the first `written` of the `queued` are in the rollups.
    private var queued = 0
    private var written = 0
    private var readers: [(after: Int, reader: CheckedContinuation<Void, any Error>)] = []
    private var senders: [CheckedContinuation<Void, Never>] = []
    private var failure: (any Error)?
    private var lastFold = ContinuousClock.now
    private let spacing: Duration
    /// The writer's wait for more batches or before a retry, cut short when a reader comes or a full fold's worth
    /// waits.
    private var nap: Task<Void, Never>?
    /// In `/metrics`: batches acknowledged and not yet folded, transactions that folded some, batches they folded,
    /// and failed attempts.
    private let pending: Gauge
    private let folds: Counter
    private let folded: Counter
    private let foldFailures: Counter
    /// Decodes a batch again from its body, as when it was received: after a crash, only the log has it.
    private let pipeline: IngestPipeline
    /// Folding what the log held at start, while it runs or until it succeeds; reads wait for it.
    private var recovery: Task<Int, any Error>?
    private var recovered = false
    /// Folds what stopped collectors leave in the log, every ``orphanSweep``.
    private var sweeper: Task<Void, Never>?

    /// - Parameters:
    ///   - log: the log of acknowledged batches, which folds them into its store.
    ///   - pipeline: decodes a batch from the log again (``IngestPipeline/rebuild(_:receivedAt:)``).
    ///   - bounds: how much may wait in memory.
    ///   - metrics: where its gauge and counters are kept.
    ///   - spacing: how long a fold waits after the previous one (``foldSpacing``).
    package init(
        log: any BatchLog, logger: Logger, pipeline: IngestPipeline, metrics: any MetricsFactory,
        bounds: Bounds = Bounds(), spacing: Duration = foldSpacing
    ) {
        pending = Gauge(label: "decodewatch_ingest_pending_batches", factory: metrics)
        folds = Counter(label: "decodewatch_ingest_folds_total", factory: metrics)
        folded = Counter(label: "decodewatch_ingest_folded_batches_total", factory: metrics)
        foldFailures = Counter(label: "decodewatch_ingest_fold_failures_total", factory: metrics)
        self.log = log
        self.bounds = bounds
        perFold = log.batchesPerFold
        maxWaiting = bounds.batches ?? max(1000, 2 * log.batchesPerFold)
        self.spacing = spacing
        self.logger = logger
        self.pipeline = pipeline
    }

    deinit { sweeper?.cancel() }

    /// Folds the batches the log holds from before, decoded again, and starts sweeping the log for those of
    /// collectors that stop later. A collector calls it at start, so that they are folded without waiting for a read.
    package func recover() async {
        if sweeper == nil {
            sweeper = Task { [weak self] in
                while (try? await Task.sleep(for: Self.orphanSweep)) != nil {
                    guard let self else { return }
                    await self.foldOrphans()
                }
            }
        }
        do {
            try await foldLeftovers()
        } catch {
            logger.error("Cannot fold the batches a stopped collector acknowledged", metadata: ["error": "\(error)"])
        }
    }

    /// Folds what the log held at start, once it succeeds; while it fails, each call tries again and throws.
    private func foldLeftovers() async throws {
        guard !recovered else { return }
        let recovery = self.recovery ?? Task { try await log.foldOrphans(pipeline: pipeline, atStart: true) }
        self.recovery = recovery
        do {
            let folded = try await recovery.value
            if !recovered, folded > 0 {
                logger.notice("Folded batches acknowledged before a restart", metadata: ["count": "\(folded)"])
            }
            recovered = true
        } catch {
            if self.recovery == recovery { self.recovery = nil }
            throw error
        }
    }

    /// Appends batches to the log and queues them for folding.
    /// - Returns: for each batch, whether it is new or was acknowledged or stored before.
    package func acknowledge(_ batches: [ReceivedBatch]) async throws -> [IngestOutcome] {
        while waiting.count >= maxWaiting || waitingSampleBytes >= bounds.sampleBytes {
            // Full while writes fail: refused now (503), rather than held until the database is back.
            if let failure { throw failure }
            await withCheckedContinuation { senders.append($0) }
        }
        let seqs = try await log.append(batches)
        for (batch, seq) in zip(batches, seqs) {
            guard let seq else { continue }
            queue(batch.aggregate, seq: seq)
        }
        if waiting.count >= perFold { nap?.cancel() }
        startWriting()
        return seqs.map { $0 == nil ? .duplicate : .stored }
    }

    /// Throws when acknowledging would: the log cannot commit, or it is full while writes fail.
    package func checkReadiness() async throws {
        if waiting.count >= maxWaiting || waitingSampleBytes >= bounds.sampleBytes, let failure { throw failure }
        try await log.commitReadinessWrite()
    }

    /// Returns once every batch acknowledged before the call is in the rollups.
    /// - Throws: the last write's error while writes fail: a reader must not see the rollups without them.
    package func settle() async throws {
        try await foldLeftovers()
        let target = queued
        guard written < target else { return }
        // While folds fail, the read has the next attempt made now rather than after the retry delay: the database
        // may be back. It fails with that attempt's error if the attempt fails.
        try await withCheckedThrowingContinuation { reader in
            readers.append((target, reader))
            nap?.cancel()
        }
    }

    /// Folds what collectors that stopped left in the log since. A batch that no longer decodes is logged and
    /// dropped: the collector decodes them under no size limit, so only a log written by a release that accepted
    /// what this one refuses can hold one.
    private func foldOrphans() async {
        do {
            let folded = try await log.foldOrphans(pipeline: pipeline, atStart: false)
            if folded > 0 {
                logger.notice(
                    "Folded batches acknowledged by a collector that stopped", metadata: ["count": "\(folded)"])
            }
        } catch {
            logger.error("Cannot fold the batches a stopped collector acknowledged", metadata: ["error": "\(error)"])
        }
    }

    /// Queues a batch the log holds, without its body: the log keeps that.
    private func queue(_ batch: BatchAggregate, seq: Int64) {
        waiting.append(LoggedBatch(seq: seq, batch: batch))
        waitingSampleBytes += Self.sampleBytes(of: batch)
        queued += 1
        pending.record(waiting.count)
    }

    private static func sampleBytes(of batch: BatchAggregate) -> Int {
        batch.groups.reduce(0) { total, group in
            total + (group.sample.snippet?.utf8.count ?? 0)
                + (group.sample.message?.utf8.count ?? 0)
        }
    }

    private func startWriting() {
        guard !writing, !waiting.isEmpty else { return }
        writing = true
        Task { await writeAll() }
    }

    /// Writes what waits, transaction after transaction, until nothing does; a failed write is retried.
    private func writeAll() async {
        while !waiting.isEmpty {
            let due = lastFold + spacing
            if failure == nil, readers.isEmpty, waiting.count < perFold, ContinuousClock.now < due {
                await pause(until: due)
            }
            let group = Array(waiting.prefix(perFold))
            do {
                // A store that was closed leaves its batches in the log, for whoever opens it next.
                guard try await foldIsolatingConflicts(group) else { break }
                waiting.removeFirst(group.count)
                waitingSampleBytes -= group.reduce(0) { $0 + Self.sampleBytes(of: $1.batch) }
                written += group.count
                failure = nil
                pending.record(waiting.count)
                folds.increment()
                folded.increment(by: group.count)
                let ready = readers.filter { $0.after <= written }
                readers.removeAll { $0.after <= written }
                for entry in ready { entry.reader.resume() }
            } catch {
                // The log still holds the batches; a fold that committed before the log's removal failed is
                // found stored next time and counts nothing twice.
                logger.error("Folding acknowledged batches failed; retrying", metadata: ["error": "\(error)"])
                failure = error
                foldFailures.increment()
                let failed = readers
                readers = []
                for entry in failed { entry.reader.resume(throwing: error) }
            }
            lastFold = .now
            let resumed = senders
            senders = []
            for sender in resumed { sender.resume() }
            if failure != nil, readers.isEmpty { await pause(until: .now + Self.retryDelay) }
        }
        writing = false
    }

    /// Waits until `due`, or until a reader or a full fold's worth of batches cuts the wait short.
    private func pause(until due: ContinuousClock.Instant) async {
        let nap = Task { _ = try? await Task.sleep(until: due) }
        self.nap = nap
        await nap.value
        self.nap = nil
    }

    /// Folds batches in one transaction; when their groups conflict, folds them one by one and drops each that
    /// conflicts alone. Only a group id that another key has (a SHA-256 collision) gets here: such a batch must not
    /// hold back every later one.
    /// - Returns: `false` when the store is gone.
    private func foldIsolatingConflicts(_ batches: [LoggedBatch]) async throws -> Bool {
        do {
            return try await log.fold(batches)
        } catch let error as StoreError where error.code == .conflict {
            for entry in batches {
                do {
                    guard batches.count > 1 else { throw error }
                    guard try await log.fold([entry]) else { return false }
                } catch let error as StoreError where error.code == .conflict {
                    logger.error(
                        "An acknowledged batch conflicts with a stored group and is dropped",
                        metadata: [
                            "app.id": "\(entry.batch.appID)", "batch.id": "\(entry.batch.batchID)", "error": "\(error)",
                        ])
                    try await log.drop([entry.seq])
                }
            }
            return true
        }
    }
}
