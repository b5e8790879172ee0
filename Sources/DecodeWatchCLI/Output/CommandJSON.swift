import DecodeWatchCore
import Foundation

/// The JSON the commands print (`--format json`): indented, keys sorted, slashes as they are, dates in RFC 3339.
enum CommandJSON {
    /// Encodes one document.
    /// - Parameter value: the document.
    /// - Returns: its JSON, ending with a newline.
    /// - Throws: what encoding `value` throws.
    static func render(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date))
        }
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}
