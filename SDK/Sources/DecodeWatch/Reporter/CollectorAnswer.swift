@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// The bodies the collector answers an upload with (docs/wire-format.md#answers), read leniently.
///
/// Every field is optional: a 2xx means the batch is stored whatever its body says, and an error
/// body may come from a proxy rather than the collector, so a body that does not parse must not
/// turn a success into a failure or hide the status.
enum CollectorAnswer {
    /// A 202: `{"accepted": N, "rejected": [{"index": 3, "error": "…"}], "warnings": ["…"], "duplicate": false}`.
    ///
    /// `warnings` is absent from collectors older than ingest keys.
    struct Accepted: Decodable, Equatable {
        var accepted: Int?
        var rejected: [Rejection]?
        var warnings: [String]?
        var duplicate: Bool?

        /// Parses a 2xx body; `nil` when it is empty or not this shape.
        static func parse(_ data: Data) -> Accepted? {
            try? JSONDecoder().decode(Accepted.self, from: data)
        }
    }

    /// An error answer: `{"error": {"code": "<snake_case>", "message": "<sentence>"}}`.
    struct Failure: Decodable {
        struct Detail: Decodable {
            var code: String?
            var message: String?
        }

        var error: Detail

        /// The collector's code and message, or for a body that is not the collector's (a proxy's
        /// HTML page, say) no code and the start of the body, so the app developer still sees a hint.
        static func parse(_ data: Data, status: Int) -> (code: String?, message: String) {
            if let failure = try? JSONDecoder().decode(Failure.self, from: data) {
                let message = failure.error.message ?? "HTTP \(status)"
                return (failure.error.code, message)
            }
            let text = String(decoding: data.prefix(200), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return (nil, text.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(text)")
        }
    }
}
