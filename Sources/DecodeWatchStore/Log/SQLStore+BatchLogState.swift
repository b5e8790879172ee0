import DecodeWatchCore
import Foundation
import Logging
import Metrics
import Synchronization

extension SQLStore {
    /// Opens the store's ``BatchLog`` and starts its ``BatchFolder``, which first folds what stopped collectors left.
    public func loggedSink(pipeline: IngestPipeline, metrics: any MetricsFactory) throws -> any BatchSink {
        let folder = BatchFolder(
            log: try openBatchLog(), logger: logState.logger, pipeline: pipeline, metrics: metrics)
        Task { await folder.recover() }
        return LoggedBatchSink(folder: folder)
    }

    /// Writes the batches' rollups in one transaction (``DirectBatchSink``).
    public func ingest(_ batches: [BatchAggregate]) async throws -> [IngestOutcome] {
        try await write(batches)
    }

    /// Commits a one-row write to the database.
    public func checkReadiness() async throws {
        try await commitReadinessWrite()
    }

    /// Waits until the batches in the database's log of acknowledged batches are in the rollups, whichever collector
    /// acknowledged them: a read of the database never misses an acknowledged batch. A running collector folds them
    /// within milliseconds (and its own reads wait for its ``BatchSink`` first, which folds at once when a reader
    /// waits); after ``BatchLogState/othersWait`` the read goes on without them, and so do later reads.
    package func settle() async throws {
        let others = try logState.others.withLock { state -> (log: any BatchLog, skipped: Int64)? in
            if state == nil, let log = try existingBatchLog() { state = (log, 0) }
            return state
        }
        guard let others, let newest = try await others.log.newest(), newest > others.skipped else { return }
        let deadline = ContinuousClock.now + BatchLogState.othersWait
        while try await others.log.holds(upTo: newest) {
            guard ContinuousClock.now < deadline else {
                logState.others.withLock { $0?.skipped = newest }
                logState.logger.warning(
                    "Reading without batches acknowledged by a collector that has not folded them yet")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// What a ``SQLStore`` keeps about the log of acknowledged batches: the log read to wait for batches not yet folded,
/// and the group keys found already stored.
package final class BatchLogState: Sendable {
    /// How long a read waits for batches a collector acknowledged and has not folded: a running one folds
    /// them within milliseconds, and a replica that stopped leaves them to be claimed by another within about 3 s
    /// (``BatchFolder/orphanSweep`` after `PostgresBatchLog.orphanAge`).
    static let othersWait = Duration.seconds(5)

    /// The store's logger, for the folder and for reads that go on without unfolded batches.
    let logger: Logger
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
