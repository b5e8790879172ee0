@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// One group failing inside a rule's window, with what the rules look at: the light row an evaluation
/// reads for every group (no samples, versions or installs; those are read for the few alerted).
public struct AlertCandidate: Sendable, Hashable {
    /// The group id.
    public var group: String
    /// App id.
    public var app: String
    /// Normalized endpoint.
    public var endpoint: String
    /// Rendered JSONPath.
    public var path: String
    /// Failure kind.
    public var kind: ReportKind
    /// Failures in the window.
    public var count: Int
    /// `count` ÷ decodes of the endpoint in the window; `nil` when no decodes were reported.
    public var rate: Double?
    /// When the group was first seen, ever.
    public var firstSeen: Date
    /// The status relative to the window, with the decisions in force applied.
    public var status: GroupStatus
    /// When the group was last resolved: a later resolution starts a new episode that may alert again.
    public var resolvedAt: Date?
    /// Whether a mute is in force: muted groups never alert.
    public var isMuted: Bool

    /// Creates a candidate.
    public init(
        group: String, app: String, endpoint: String, path: String, kind: ReportKind, count: Int, rate: Double?,
        firstSeen: Date, status: GroupStatus, resolvedAt: Date?, isMuted: Bool = false
    ) {
        self.group = group
        self.app = app
        self.endpoint = endpoint
        self.path = path
        self.kind = kind
        self.count = count
        self.rate = rate
        self.firstSeen = firstSeen
        self.status = status
        self.resolvedAt = resolvedAt
        self.isMuted = isMuted
    }
}
