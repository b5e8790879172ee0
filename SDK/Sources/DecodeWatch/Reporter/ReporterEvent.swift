@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// Something the reporter did in the background, for an app's logs and metrics.
///
/// The SDK depends on Foundation only, so instead of a logger it calls
/// ``ReporterConfiguration/onEvent`` with one of these. Each upload attempt ends in exactly one of
/// ``batchSent(batchID:status:)``, ``batchSentWithIssues(batchID:accepted:rejected:warnings:)``,
/// ``batchRefused(batchID:status:code:message:retryIn:)`` and ``uploadFailed(batchID:reason:retryIn:)``.
/// The ingest key never appears in an event, even when the collector's answer quotes it.
public enum ReporterEvent: Sendable, Hashable {
    /// The collector stored the whole batch as sent (a 2xx), and the batch left the spool.
    case batchSent(batchID: String, status: Int)

    /// The collector stored the batch (a 2xx) but left out some reports or changed some values, and
    /// the batch left the spool.
    ///
    /// Resending would get the same answer, so nothing is retried; this event is how an app developer
    /// learns that the SDK sends something the collector does not take, e.g. an `app.version` longer
    /// than 64 characters (a warning: truncated) or a report the collector cannot read (rejected).
    /// - `accepted`: reports stored, as the collector counts them.
    /// - `rejected`: reports left out, each with its index in the batch and the collector's reason.
    /// - `warnings`: values the collector truncated or dropped, e.g.
    ///   `app.version: longer than 64 characters, truncated`.
    case batchSentWithIssues(batchID: String, accepted: Int, rejected: [Rejection], warnings: [String])

    /// The collector refused the batch with a 4xx other than 408 and 429; the batch stays spooled and
    /// is tried again by the first flush after `retryIn` seconds (the long backoff,
    /// ``ReporterConfiguration/RetryPolicy/refusalBaseDelay``).
    ///
    /// A refusal is fixed by a person, not by waiting, so this is the event to alert on:
    /// - 401: the ingest key is missing, unknown or revoked; 403: it belongs to another app. Check
    ///   ``ReporterConfiguration/ingestKey``. No batch is sent until `retryIn` has passed.
    /// - Any other 4xx (400, 413, 415): this batch was refused; the others are still sent. A later
    ///   collector release or configuration may accept it.
    ///
    /// `code` and `message` are the collector's error (`{"error": {"code", "message"}}`); when the body
    /// is not that (a proxy's page, say), `code` is `nil` and `message` holds the start of the body.
    /// Refused batches leave the spool only when it is full (oldest first, as
    /// ``batchDropped(batchID:)``).
    case batchRefused(batchID: String, status: Int, code: String?, message: String, retryIn: TimeInterval)

    /// An upload failed in a way that passes by itself (network error, 5xx, 408, 429); the batch stays
    /// spooled and is tried again after `retryIn` seconds (the short backoff or the collector's
    /// `Retry-After`).
    case uploadFailed(batchID: String, reason: String, retryIn: TimeInterval)

    /// A spooled batch could not be read, so it was not sent this time; it stays in the spool and a later flush
    /// tries it again, counted in ``ReporterStatistics/unreadableAttempts``.
    ///
    /// On iOS this happens while the device is locked when the batch's file is under a protection class stricter
    /// than ``ReporterConfiguration/fileProtection``'s default, or before the first unlock after a restart.
    case batchUnreadable(batchID: String)

    /// The spool was full and its oldest batch was dropped unsent, counted in
    /// ``ReporterStatistics/droppedBatches``.
    case batchDropped(batchID: String)

    /// The in-memory buffer was full and a new distinct report was dropped, counted in
    /// ``ReporterStatistics/droppedReports``.
    case reportDropped
}
