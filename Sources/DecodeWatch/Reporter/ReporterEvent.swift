/// Something the reporter did in the background, for an app's logs and metrics.
///
/// The SDK depends on Foundation only, so instead of a logger it calls
/// ``ReporterConfiguration/onEvent`` with one of these.
public enum ReporterEvent: Sendable, Hashable {
    /// A batch was accepted by the collector (a 2xx answer) and removed from the spool.
    case batchSent(batchID: String, status: Int)
    /// The collector refused a batch with a 4xx that resending cannot fix; it was removed from the spool.
    case batchRejected(batchID: String, status: Int, body: String)
    /// An upload failed in a way that may pass (network error, 5xx, 408, 429); the batch stays spooled.
    case uploadFailed(batchID: String, reason: String, retryIn: Double)
    /// The spool was full and its oldest batch was dropped unsent.
    case batchDropped(batchID: String)
    /// The in-memory buffer was full and a new distinct report was dropped.
    case reportDropped
}
