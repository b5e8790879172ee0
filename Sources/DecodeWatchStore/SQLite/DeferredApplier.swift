import DecodeWatchCore
import Foundation
import Logging
import Metrics

/// Folds acknowledged batches into the rollups in the background, up to ``maxBatchesPerWrite`` per transaction.
///
/// A commit's cost is mostly the cells it touches, and batches sent close together share most of them, so a
/// transaction of many batches costs far less per batch than one of a few. The batches wait in memory, folded,
/// and in the ``PendingLog`` as sent; each write removes them from the log once it has committed. Reads wait for
/// the batches acknowledged before them (``settle()``), so an acknowledged batch is in every answer.
actor DeferredApplier {
    /// Decodes a batch again from its body, as when it was received: after a crash, only the log has it.
    typealias Rebuild = @Sendable (BatchSource, Date) throws -> BatchAggregate

    /// Most batches folded in one transaction.
    static let maxBatchesPerWrite = 200
    /// Most batches waiting in memory, and most bytes of their samples (each group's latest snippet and message,
    /// not yet redacted or cut: a batch may carry megabytes of them, and they are most of a folded batch's size).
    /// Past either, acknowledging waits for a write to make room.
    struct Bounds {
        var batches = 1000
        var sampleBytes = 64 << 20
    }
    /// How long a failed write waits before it is tried again.
    static let retryDelay = Duration.seconds(1)
    /// How long a fold waits after the previous one for more batches, unless a reader waits or a full fold's worth
    /// does: at moderate load batches arrive a few at a time, and a fold of many costs far less per batch.
    static let foldSpacing = Duration.milliseconds(20)

    private let log: PendingLog
    private let bounds: Bounds
    private let write: @Sendable ([BatchAggregate]) async throws -> Bool
    private let logger: Logger
    private var waiting: [(seq: Int64, batch: BatchAggregate)] = []
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
    /// The writer's wait for more batches, cut short when a reader comes or a full fold's worth waits.
    private var nap: Task<Void, Never>?
    /// In `/metrics`: batches acknowledged and not yet folded, transactions that folded some, batches they folded,
    /// and failed attempts.
    private let pending = Gauge(label: "decodewatch_ingest_pending_batches")
    private let folds = Counter(label: "decodewatch_ingest_folds_total")
    private let folded = Counter(label: "decodewatch_ingest_folded_batches_total")
    private let foldFailures = Counter(label: "decodewatch_ingest_fold_failures_total")
    private let rebuild: Rebuild
    /// Reading the log left from before; every other step waits for it.
    private var recovery: Task<Void, Never>?

    /// - Parameters:
    ///   - log: the log of acknowledged batches.
    ///   - write: stores batches in one transaction (``SQLStore/write(_:)``); `false` when the store is gone.
    ///   - rebuild: decodes a batch from the log again.
    ///   - bounds: how much may wait in memory.
    ///   - spacing: how long a fold waits after the previous one (``foldSpacing``).
    init(
        log: PendingLog, logger: Logger, write: @escaping @Sendable ([BatchAggregate]) async throws -> Bool,
        rebuild: @escaping Rebuild, bounds: Bounds = Bounds(), spacing: Duration = foldSpacing
    ) {
        self.log = log
        self.bounds = bounds
        self.spacing = spacing
        self.logger = logger
        self.write = write
        self.rebuild = rebuild
    }

    /// Queues the batches the log holds from before, decoded again, ahead of any new one. Every other method
    /// does this first; a collector calls it at start, so that they are written without waiting for traffic.
    func recover() async {
        if recovery == nil { recovery = Task { await self.readLog() } }
        await recovery?.value
    }

    /// Appends batches to the log and queues them for writing.
    /// - Parameter check: which batches the database has stored, or an error that refuses them all
    ///   (``PendingLog/append(_:check:)``).
    /// - Returns: for each batch, whether it is new or was acknowledged or stored before.
    func acknowledge(
        _ batches: [BatchAggregate], check: @escaping @Sendable ([BatchIdentity]) throws -> Set<BatchIdentity>
    ) async throws -> [IngestOutcome] {
        await recover()
        while waiting.count >= bounds.batches || waitingSampleBytes >= bounds.sampleBytes {
            // Full while writes fail: refused now (503), rather than held until the database is back.
            if let failure { throw failure }
            await withCheckedContinuation { senders.append($0) }
        }
        let seqs = try await log.append(batches, check: check)
        for (batch, seq) in zip(batches, seqs) {
            guard let seq else { continue }
            queue(batch, seq: seq)
        }
        if waiting.count >= Self.maxBatchesPerWrite { nap?.cancel() }
        startWriting()
        return seqs.map { $0 == nil ? .duplicate : .stored }
    }

    /// Throws when acknowledging would: the log cannot commit, or it is full while writes fail.
    func checkReadiness() async throws {
        if waiting.count >= bounds.batches || waitingSampleBytes >= bounds.sampleBytes, let failure { throw failure }
        try await log.commitReadinessWrite()
    }

    /// Returns once every batch acknowledged before the call is in the rollups.
    /// - Throws: the last write's error while writes fail: a reader must not see the rollups without them.
    func settle() async throws {
        await recover()
        let target = queued
        guard written < target else { return }
        if let failure { throw failure }
        try await withCheckedThrowingContinuation { reader in
            readers.append((target, reader))
            nap?.cancel()
        }
    }

    /// Decodes the log's batches again and queues them: those a stopped collector acknowledged and never wrote.
    /// A batch that no longer decodes is logged and dropped: the collector decodes them under no size limit, so only
    /// a log written by a release that accepted what this one refuses can hold one.
    private func readLog() async {
        do {
            var unreadable: [Int64] = []
            for entry in try await log.entries() {
                do {
                    queue(try rebuild(entry.source, entry.receivedAt), seq: entry.seq)
                } catch {
                    logger.error(
                        "An acknowledged batch no longer decodes and is dropped",
                        metadata: [
                            "app.id": "\(entry.identity.app)", "batch.id": "\(entry.identity.batch)",
                            "error": "\(error)",
                        ])
                    unreadable.append(entry.seq)
                }
            }
            try await log.remove(unreadable)
            if queued > 0 {
                logger.notice("Folding batches acknowledged before a restart", metadata: ["count": "\(queued)"])
            }
        } catch {
            logger.error("Cannot read the log of acknowledged batches", metadata: ["error": "\(error)"])
        }
        startWriting()
    }

    /// Queues a batch the log holds, without its body: the log keeps that.
    private func queue(_ batch: BatchAggregate, seq: Int64) {
        var batch = batch
        batch.source = nil
        waiting.append((seq, batch))
        waitingSampleBytes += Self.sampleBytes(of: batch)
        queued += 1
        pending.record(waiting.count)
    }

    private static func sampleBytes(of batch: BatchAggregate) -> Int {
        batch.groups.reduce(0) { total, group in
            total + (group.unredactedSample.snippet?.utf8.count ?? 0)
                + (group.unredactedSample.message?.utf8.count ?? 0)
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
            if failure == nil, readers.isEmpty, waiting.count < Self.maxBatchesPerWrite, ContinuousClock.now < due {
                let nap = Task { _ = try? await Task.sleep(until: due) }
                self.nap = nap
                await nap.value
                self.nap = nil
            }
            let group = Array(waiting.prefix(Self.maxBatchesPerWrite))
            do {
                // A store that was closed leaves its batches in the log, for whoever opens it next.
                guard try await writeIsolatingConflicts(group.map(\.batch)) else { break }
                try await log.remove(group.map(\.seq))
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
                // The log still holds the batches; a write that committed before the log's removal failed is
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
            if failure != nil { try? await Task.sleep(for: Self.retryDelay) }
        }
        writing = false
    }

    /// Writes batches in one transaction; when their groups conflict, writes them one by one and drops each that
    /// conflicts alone. Acknowledging checks every batch's groups against the database, so only a group stored
    /// under a colliding id between a batch's acknowledgment and its write gets here: such a batch must not hold
    /// back every later one.
    /// - Returns: `false` when the store is gone.
    private func writeIsolatingConflicts(_ batches: [BatchAggregate]) async throws -> Bool {
        do {
            return try await write(batches)
        } catch let error as StoreError where error.code == .conflict {
            for batch in batches {
                do {
                    guard batches.count > 1 else { throw error }
                    guard try await write([batch]) else { return false }
                } catch let error as StoreError where error.code == .conflict {
                    logger.error(
                        "An acknowledged batch conflicts with a stored group and is dropped",
                        metadata: ["app.id": "\(batch.appID)", "batch.id": "\(batch.batchID)", "error": "\(error)"])
                }
            }
            return true
        }
    }
}
