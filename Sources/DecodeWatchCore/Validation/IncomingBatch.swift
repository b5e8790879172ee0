@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// A batch as received, read leniently: every report is read on its own, so that one bad report is rejected
/// with a reason while the good ones around it are kept (as `[Safe<T>]` would), and a bad optional header field
/// or `decodes` entry is dropped with a warning instead of refusing the batch. Only what docs/wire-format.md#errors
/// lists as 400 reasons refuses it: a missing or unusable `batch_id`, `app.id` or `reports`.
struct IncomingBatch: Equatable {
    var batchID: String
    var sentAt: Date?
    var app: AppInfo
    var sdk: SDKInfo?
    var installID: String?
    var environment: String?
    var decodes: [Result<DecodeCount, FieldProblem>] = []
    var reports: [Result<Report, FieldProblem>] = []
    /// The shape number of each report (``RecentShapes``), `-1` for one that has none; reports of one shape have
    /// the same endpoint, path and kind. Empty when the reader did not number shapes.
    var shapes: [Int] = []
    /// How many shapes were numbered: every number in ``shapes`` is below it.
    var shapeCount = 0
    /// Where each report's `snippet` is in the text, `nil` for one without. The reader leaves the reports' own
    /// `snippet` empty: a batch keeps one per group, so only those are made into strings (``BatchValidator``).
    var snippets: [StringSpan?] = []
    /// What was dropped while reading, as `field: reason` sentences.
    var warnings: [String] = []
}

/// Why one report or `decodes` entry cannot be used: a sentence that starts with the field, e.g.
/// `reports[3].count: expected an integer`.
struct FieldProblem: Error, Hashable {
    let text: String
    init(_ text: String) { self.text = text }
}
