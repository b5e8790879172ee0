/// Where a group stands in its lifecycle, relative to a query window (docs/api.md#status, `status`).
public enum GroupStatus: String, Codable, Sendable, CaseIterable {
    /// First seen inside the window.
    case new
    /// Seen again, inside the window, after it was marked resolved.
    case regressed
    /// Seen before the window and still happening.
    case ongoing
    /// Marked resolved and not seen since.
    case resolved
}
