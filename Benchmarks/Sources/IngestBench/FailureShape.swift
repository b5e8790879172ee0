import BenchmarkSupport

/// One way a response fails to decode: the coding path, the kind, the expected type, and how the message and the
/// snippet of the offending JSON vary from one report to the next.
struct FailureShape: Sendable {
    /// One element of a coding path template; ids and indexes are drawn anew for each report.
    enum Step: Sendable {
        /// A fixed key.
        case key(String)
        /// An array index in 0..<40.
        case index
        /// A dictionary key of digits (an id).
        case digitsKey
        /// A dictionary key that is a lower-case UUID.
        case uuidKey
        /// A dictionary key of 16 hex digits.
        case hexKey
    }

    /// The coding path, before its ids and indexes are drawn.
    var path: [Step]
    /// The report kind (SPEC section 1).
    var kind: String
    /// The type the app expected.
    var expected: String
    /// Writes the message, as Swift's `DecodingError` prints it.
    var message: @Sendable (inout SplitMix64) -> String
    /// Writes the JSON snippet around the value that failed.
    var snippet: @Sendable (inout SplitMix64) -> String

    /// The path with its ids and indexes drawn, as the JSON array text of a report's `path`.
    func pathJSON(using random: inout SplitMix64) -> String {
        JSONText.array(
            path.map { step in
                switch step {
                case .key(let key): JSONText.string(key)
                case .index: String(random.int(0..<40))
                case .digitsKey: JSONText.string(String(random.int(1..<1_000_000)))
                case .uuidKey: JSONText.string(random.uuid())
                case .hexKey: JSONText.string(hex(random.bits(64), 16))
                }
            })
    }
}
