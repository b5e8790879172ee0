import BenchmarkSupport

/// Messages and snippets as a Swift app's decoding failures print them, shared by the endpoints' failure shapes.
enum DecodingErrorText {
    /// The message of `keyNotFound` for `key`.
    static func missingKey(_ key: String) -> String {
        "No value associated with key CodingKeys(stringValue: \"\(key)\", intValue: nil) (\"\(key)\")."
    }

    /// The message of `typeMismatch`: `expected` was wanted, `found` was there.
    static func mismatch(_ expected: String, found: String = "a string/data") -> String {
        "Expected to decode \(expected) but found \(found) instead."
    }

    /// The message of `valueNotFound` for `expected`.
    static func null(_ expected: String) -> String {
        "Expected \(expected) value but found null instead."
    }

    /// The message of `dataCorrupted` for a date that is not ISO 8601.
    static let notISO8601 = "Expected date string to be ISO8601-formatted."

    /// The message of `unknownValue`: an enumeration without a case for `value`.
    static func unknown(_ type: String, _ value: String) -> String {
        "Cannot initialize \(type) from invalid String value \(value)"
    }

    /// A typical object around the failing value: `{"id":…,"KEY":VALUE,"updated":…}`.
    /// - Parameter value: the failing value, already written as JSON text.
    static func snippet(_ random: inout SplitMix64, _ key: String, _ value: String) -> String {
        JSONText.object([
            "id": String(random.int(1_000_000..<10_000_000)), key: value,
            "updated": String(random.int(1_000_000_000..<2_000_000_000)),
        ])
    }

    /// A typical object around a failing value drawn first, as `realistic_batches.py` draws it before the rest.
    /// - Parameter value: writes the failing value as JSON text.
    static func snippet(
        _ random: inout SplitMix64, _ key: String, value: (inout SplitMix64) -> String
    ) -> String {
        let drawn = value(&random)
        return snippet(&random, key, drawn)
    }
}
