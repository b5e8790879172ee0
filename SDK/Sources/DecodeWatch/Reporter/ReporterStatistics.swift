/// Counters of what a reporter has done since it was made, for diagnostics and tests.
public struct ReporterStatistics: Sendable, Hashable {
    /// Failures recorded (after sampling), folded or not.
    public var recordedFailures = 0
    /// Distinct reports dropped because the in-memory buffer was full.
    public var droppedReports = 0
    /// Batches the collector accepted.
    public var sentBatches = 0
    /// Upload attempts the collector refused with a 4xx other than 408 and 429; the batch stayed
    /// spooled for a retry after the long backoff.
    public var refusedAttempts = 0
    /// Reports the collector left out of batches it stored (the `rejected` list of its answer).
    public var rejectedReports = 0
    /// Batches dropped unsent because the spool was full (oldest first).
    public var droppedBatches = 0
    /// Reports inside the batches dropped from the spool.
    public var droppedBatchReports = 0
    /// Upload attempts that failed in a way that passes by itself (network error, 5xx, 408, 429).
    public var failedAttempts = 0
    /// Times a spooled batch could not be read (its file protected while the device is locked); it stayed
    /// spooled for a later flush.
    public var unreadableAttempts = 0

    /// Creates empty statistics.
    public init() {}
}
