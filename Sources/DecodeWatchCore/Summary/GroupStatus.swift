/// Where a group stands, relative to a query window (docs/api.md#status, `status`).
public enum GroupStatus: String, Codable, Sendable, CaseIterable {
    /// First seen inside the window.
    case new
    /// Seen again, inside the window, after it was marked resolved.
    case regressed
    /// Seen before the window and still happening.
    case ongoing
    /// Marked resolved and not seen since.
    case resolved
    /// Failing, but muted by a person until the mute ends (``FieldSummary/mute`` says when); listed apart from
    /// the open statuses meanwhile. A resolved group stays `resolved` whatever its mute.
    case muted

    /// Reads a `status` filter.
    /// - Parameters:
    ///   - text: a status, `all`, or `nil` for no filter.
    ///   - field: the filter as the caller spells it (`status`, `--status`), for the message.
    /// - Returns: the status asked for, or `nil` for every status.
    /// - Throws: ``QueryError`` naming the filter and the values it takes.
    public static func filter(_ text: String?, field: String) throws(QueryError) -> GroupStatus? {
        guard let text, text != "all" else { return nil }
        guard let status = GroupStatus(rawValue: text) else {
            let names = allCases.map(\.rawValue) + ["all"]
            throw QueryError(
                "\(field) '\(text)' is not a status; use \(names.dropLast().joined(separator: ", ")) or all.")
        }
        return status
    }
}
