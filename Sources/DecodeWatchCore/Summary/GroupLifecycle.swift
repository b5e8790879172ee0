import Foundation

/// The stored lifecycle of a group, from which every backend derives its window-relative ``GroupStatus``.
public struct GroupLifecycle: Sendable, Hashable {
    /// What a person or the collector last decided about a group.
    public enum State: String, Sendable, Hashable {
        /// Never resolved, or resolved and then reopened by a regression that aged out.
        case open
        /// Marked resolved and not seen since.
        case resolved
        /// Seen again after it was resolved.
        case regressed
    }

    /// The state.
    public var state: State
    /// When it was first seen, ever.
    public var firstSeen: Date
    /// When it was last marked resolved.
    public var resolvedAt: Date?
    /// When a report occurring after ``resolvedAt`` arrived.
    public var regressedAt: Date?
    /// The app version whose report brought the group back.
    public var regressedVersion: String?

    /// Creates a lifecycle.
    public init(state: State, firstSeen: Date, resolvedAt: Date?, regressedAt: Date?, regressedVersion: String?) {
        self.state = state
        self.firstSeen = firstSeen
        self.resolvedAt = resolvedAt
        self.regressedAt = regressedAt
        self.regressedVersion = regressedVersion
    }

    /// The status relative to a window starting at `since` (docs/api.md#status).
    ///
    /// `resolved` wins while the group is resolved; `regressed` holds while the regression happened
    /// inside the window; otherwise `new` when first seen inside the window, else `ongoing`.
    public func status(since: Date) -> GroupStatus {
        switch state {
        case .resolved: return .resolved
        case .regressed where (regressedAt ?? .distantPast) >= since: return .regressed
        default: return firstSeen >= since ? .new : .ongoing
        }
    }
}
