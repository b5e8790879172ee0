import DecodeWatchCore
import Foundation

/// How many samples each group keeps (docs/api.md#group-actions): the last ones, one per commit that reported the
/// group, each snippet already redacted and cut to ``IngestLimits/Field/snippetBytes``, so a group's history is
/// bounded in bytes too.
public enum SampleHistory {
    /// Samples kept per group.
    public static let size = 20
}

/// One kept sample of a group: the redacted snippet, and where and when it was reported.
public struct GroupSample: Sendable, Hashable, Codable {
    /// The redacted JSON snippet; `nil` when the report sent none.
    @NullEncoded public var snippet: String?
    /// The app version of the batch (`unknown` without one).
    public var version: String
    /// The OS version of the batch (`unknown` without one).
    public var os: String
    /// The environment the batch counted in.
    public var environment: String
    /// When the latest report of that batch's group occurred.
    @RFC3339Coded public var seenAt: Date

    enum CodingKeys: String, CodingKey {
        case snippet, version, os, environment
        case seenAt = "seen_at"
    }
}

/// A group's failures on one OS version.
public struct OSFailures: Sendable, Hashable, Codable {
    /// The OS version, as batches sent it in `app.os` (`unknown` without one).
    public var os: String
    /// Its failures in the window.
    public var count: Int

    /// Creates an entry.
    public init(os: String, count: Int) {
        self.os = os
        self.count = count
    }
}
