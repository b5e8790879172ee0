/// A storage failure. Knows nothing of HTTP: the server maps codes to statuses in one place.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure. A struct so that codes can be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// Stable name.
        public let name: String
        /// Storage cannot answer or commit now (disk full, locked, unreachable); retrying later may work.
        public static let unavailable = Code(name: "unavailable")
        /// The thing asked for does not exist.
        public static let notFound = Code(name: "not_found")
        /// A write would change a record that belongs to something else (a group id collision).
        public static let conflict = Code(name: "conflict")
        /// A shortened id names several things; a longer one is needed.
        public static let ambiguous = Code(name: "ambiguous")
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// One sentence a person can act on.
    public let message: String

    /// Creates a storage error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

extension StoreError {
    /// Two different group keys share an id: the batch is refused instead of counted into the wrong group.
    static func groupConflict(_ id: String) -> StoreError {
        StoreError(
            .conflict,
            "The batch maps a report to group \(id), which belongs to a different app, endpoint, path or kind; "
                + "nothing was stored.")
    }
}
