/// Group ids as people type them (docs/api.md#group-ids): any unique start of at least ``minimumLength`` of the
/// 32 hex characters, in the CLI and in the API's `/v1/groups/{group}` paths; tables show the first
/// ``shownLength``.
public enum GroupIDPrefix {
    /// The shortest start taken: shorter ones would match several groups too often to be useful.
    public static let minimumLength = 6
    /// How much of an id tables show: unique in practice, and short enough to type.
    public static let shownLength = 12

    /// The start of an id as tables show it.
    public static func shown(_ id: String) -> String { String(id.prefix(shownLength)) }

    /// Checks the form of a typed id before anything is looked up.
    /// - Throws: ``QueryError`` for a start shorter than ``minimumLength`` or not hexadecimal.
    public static func check(_ text: String) throws(QueryError) {
        guard text.count >= minimumLength else {
            throw QueryError(
                "The group id '\(text)' is too short: give at least \(minimumLength) of its characters, "
                    + "as `decodewatch fields` shows them.")
        }
        guard text.allSatisfy(\.isHexDigit) else {
            throw QueryError("The group id '\(text)' is not hexadecimal; copy it from `decodewatch fields`.")
        }
    }
}
