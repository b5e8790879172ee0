import Foundation

/// The JSON of `GET /v1/groups/{group}` and of the action endpoints (docs/api.md#group-actions), as tests read it: the
/// product only writes it, so this is the test's own reading of the documented fields.
public struct GroupAnswer: Decodable, Sendable {
    /// One decision in the group's history.
    public struct Event: Decodable, Sendable {
        public let at: String
        public let action: String
        public let detail: String?
        public let actor: String?
    }

    public let group: String
    public let muted: Bool
    public let mutedUntil: String?
    public let mutedFailuresLeft: Int?
    public let resolvedInNextVersion: Bool
    public let resolvedThroughVersion: String?
    public let history: [Event]
    public let issueURL: String?

    enum CodingKeys: String, CodingKey {
        case group, muted, history
        case mutedUntil = "muted_until"
        case mutedFailuresLeft = "muted_failures_left"
        case resolvedInNextVersion = "resolved_in_next_version"
        case resolvedThroughVersion = "resolved_through_version"
        case issueURL = "issue_url"
    }
}
