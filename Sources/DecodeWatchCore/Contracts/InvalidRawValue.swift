/// Swift's own error for a raw value that no case of a plain enum has, read back from a report's message:
/// "Cannot initialize State from invalid String value merged".
struct InvalidRawValue: Sendable, Hashable {
    /// The enum's name, `State`.
    var enumName: String
    /// Its raw type, `String`.
    var rawType: String
    /// The value no case has, `merged`.
    var value: String

    /// Reads the error from a message.
    /// - Returns: `nil` when the message is not that error.
    init?(message: String?) {
        guard let message, let start = message.range(of: "Cannot initialize "),
            let from = message.range(of: " from invalid ", range: start.upperBound..<message.endIndex),
            let mark = message.range(of: " value ", range: from.upperBound..<message.endIndex)
        else { return nil }
        enumName = String(message[start.upperBound..<from.lowerBound])
        rawType = String(message[from.upperBound..<mark.lowerBound])
        value = message[mark.upperBound...].trimmingCharacters(in: .whitespaces)
        guard !enumName.isEmpty, !enumName.contains(" "), !value.isEmpty else { return nil }
    }
}
