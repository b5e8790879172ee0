import DecodeWatchCore
import Foundation
import Logging
import Synchronization

extension SQLStore {
    /// Acknowledges from now on each batch that carries its ``BatchAggregate/source`` once the batch is in the
    /// store's ``BatchLog``, and folds the batches into the rollups in the background, many per transaction
    /// (``BatchFolder``). Reads wait for the batches acknowledged before them, so an acknowledged batch is in every
    /// answer. Calling it again changes nothing.
    /// - Parameter pipeline: decodes a batch from its body as it was received, for the batches a stopped
    ///   collector left in the log; they are folded first.
    /// - Throws: ``StoreError`` with code `unavailable` when the log cannot be opened.
    public func acknowledgeBeforeWriting(pipeline: IngestPipeline) throws {
        let started = try logging.folder.withLock { folder in
            if let folder { return folder }
            let started = BatchFolder(log: try openBatchLog(), logger: logging.logger, pipeline: pipeline)
            folder = started
            return started
        }
        Task { await started.recover() }
    }

    /// Stores batches as ``ReportStore/ingest(_:)-([BatchAggregate])`` says. After
    /// ``acknowledgeBeforeWriting(pipeline:)``, batches that all carry their ``BatchAggregate/source`` are stored in
    /// the log and folded into the rollups later.
    public func ingest(_ batches: [BatchAggregate]) async throws -> [IngestOutcome] {
        guard let folder = logging.folder.withLock({ $0 }), batches.allSatisfy({ $0.source != nil }) else {
            return try await write(batches)
        }
        return try await folder.acknowledge(batches)
    }

    /// Commits a one-row write where ingest commits: the log once ``acknowledgeBeforeWriting(pipeline:)`` was
    /// called, the database otherwise. So `/readyz` is 503 when acknowledging cannot commit.
    public func checkReadiness() async throws {
        guard let folder = logging.folder.withLock({ $0 }) else { return try await commitReadinessWrite() }
        try await folder.checkReadiness()
    }

    /// Waits until the batches acknowledged so far are in the rollups: this process's, and other collectors' on the
    /// same database (a running collector folds them within milliseconds; after ``IngestLogging/othersWait`` the
    /// read goes on without them, and so do later reads).
    package func settle() async throws {
        // The newest batch first: this collector's own, up to it, are folded once its folder has settled.
        let others = try logging.others.withLock { state -> (log: any BatchLog, skipped: Int64)? in
            if state == nil, let log = try existingBatchLog() { state = (log, 0) }
            return state
        }
        let newest = try await others?.log.newest()
        if let folder = logging.folder.withLock({ $0 }) { try await folder.settle() }
        guard let others, let newest, newest > others.skipped else { return }
        let deadline = ContinuousClock.now + IngestLogging.othersWait
        while try await others.log.holds(upTo: newest) {
            guard ContinuousClock.now < deadline else {
                logging.others.withLock { $0?.skipped = newest }
                logging.logger.warning(
                    "Reading without batches acknowledged by a collector that has not folded them yet")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// What a ``SQLStore`` keeps to acknowledge batches from its log: the folder, once started, and the log read to
/// wait for other collectors' batches.
package final class IngestLogging: Sendable {
    /// How long a read waits for batches another collector acknowledged and has not folded: a running one folds
    /// them within milliseconds, and a replica that stopped leaves them to be claimed by another within about 3 s
    /// (``BatchFolder/orphanSweep`` after `PostgresBatchLog.orphanAge`).
    static let othersWait = Duration.seconds(5)

    let logger: Logger
    /// Set once ``SQLStore/acknowledgeBeforeWriting(pipeline:)`` is called.
    let folder = Mutex<BatchFolder?>(nil)
    /// The log as every collector writes it, opened by the first read, and the newest of its batches a read went
    /// on without: later reads do not wait for those again.
    let others = Mutex<(log: any BatchLog, skipped: Int64)?>(nil)
    /// Group keys found stored under their own id when batches were acknowledged: not looked up again
    /// (``checkedKeysLimit`` at most, then forgotten together).
    let checkedKeys = Mutex<Set<GroupKey>>([])

    package init(logger: Logger) {
        self.logger = logger
    }
}
