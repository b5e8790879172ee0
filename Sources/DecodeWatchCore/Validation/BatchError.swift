/// Why a whole batch was refused. Knows nothing of HTTP: the server maps ``Code`` to a status.
public struct BatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal this is. A struct so that codes can be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The stable snake_case name used in error bodies.
        public let name: String
        /// The body is not JSON or not a JSON object.
        public static let invalidJSON = Code(name: "invalid_json")
        /// A required batch field is missing or a batch field is malformed.
        public static let invalidBatch = Code(name: "invalid_batch")
        /// More reports than the limit allows.
        public static let tooManyReports = Code(name: "too_many_reports")
        public var description: String { name }
    }

    /// The kind of refusal.
    public let code: Code
    /// One sentence a person can act on.
    public let message: String

    /// Creates a batch error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
