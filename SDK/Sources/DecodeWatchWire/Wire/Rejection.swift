/// One report refused inside an otherwise accepted batch (docs/wire-format.md#answers, `rejected[]`).
public struct Rejection: Codable, Sendable, Hashable {
    /// Position of the report in `reports`.
    public var index: Int
    /// What was wrong, starting with the field, e.g. `reports[3].kind: unknown kind 'oops'`.
    public var error: String

    /// Creates a rejection.
    public init(index: Int, error: String) {
        self.index = index
        self.error = error
    }
}
