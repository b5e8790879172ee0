@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// A batch that passed validation: its accepted reports, each with its group key, and its rejections.
public struct ValidatedBatch: Sendable {
    /// The client's batch id.
    public var batchID: String
    /// When the client sent it, if it said.
    public var sentAt: Date?
    /// When the collector received it.
    public var receivedAt: Date
    /// The app.
    public var app: AppInfo
    /// The SDK.
    public var sdk: SDKInfo?
    /// The install id, if sent.
    public var installID: String?
    /// The environment its reports and decodes count in: as sent, or ``EnvironmentName/production``.
    public var environment: String
    /// Decode counts with normalized endpoints.
    public var decodes: [EndpointCount]
    /// The keys of the groups the accepted reports belong to, numbered in the order their first report comes.
    public var groupKeys: [GroupKey]
    /// Reports that passed validation.
    public var accepted: [AcceptedReport]
    /// For each group, by number, the index in ``accepted`` of its sample: its last report of the latest time, the
    /// one whose snippet is kept.
    public var samples: [Int]
    /// Reports that did not, with reasons.
    public var rejected: [Rejection]
    /// Header values and `decodes` entries that were cut or dropped, as `field: reason` sentences.
    public var warnings: [String]

    /// The time decode counts belong to: `sent_at`, or the receive time when absent
    /// (docs/wire-format.md#decode-counts).
    public var decodesAt: Date { sentAt ?? receivedAt }
}

/// A validated report and the key of the group it belongs to.
public struct AcceptedReport: Sendable {
    /// The report. Its `snippet` is kept only when it is its group's sample in the batch (its last report of the
    /// latest time), the one report of the group whose snippet storage keeps; the others' is `nil`.
    public var report: Report
    /// The number of its group in ``ValidatedBatch/groupKeys``.
    public var group: Int
    /// Its group key.
    public var key: GroupKey
}

/// A count for one normalized endpoint.
public struct EndpointCount: Sendable, Hashable {
    /// The normalized endpoint.
    public var endpoint: String
    /// The count.
    public var count: Int
}
