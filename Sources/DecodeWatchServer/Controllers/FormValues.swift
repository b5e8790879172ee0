import DecodeWatchCore
import Foundation
import Hummingbird

/// Name–value pairs of a query string or an `application/x-www-form-urlencoded` body, decoded as
/// browsers encode them: `+` is a space and `%XX` a byte (WHATWG URL standard, urlencoded parsing).
///
/// Hummingbird's `queryParameters` keeps `+` as is, so a form's `endpoint=GET+%2Fv2%2Fposts` would
/// reach the filters as `GET+/v2/posts`; every query string the collector reads goes through here.
struct FormValues: Sendable {
    private var pairs: [(name: String, value: String)] = []

    /// Parses encoded text; a pair that is not valid percent-encoding keeps its raw text.
    init(_ encoded: Substring) {
        for part in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let sides = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            pairs.append((Self.decode(sides[0]), sides.count > 1 ? Self.decode(sides[1]) : ""))
        }
    }

    /// The query string of a request.
    init(query request: Request) {
        self.init(Substring(request.uri.query ?? ""))
    }

    /// The query string of a request to an API route, which answers nothing it does not read: a misspelt filter
    /// would otherwise be ignored, and the answer look like one to the question asked.
    /// - Parameter names: the parameters the route reads.
    /// - Throws: ``APIError`` 400 `unknown_parameter` naming the first other parameter and the nearest known one.
    init(query request: Request, accepting names: Set<String>) throws {
        self.init(query: request)
        guard let unknown = pairs.first(where: { !names.contains($0.name) })?.name else { return }
        let hint =
            if let nearest = NearestNames.suggestion(for: unknown, in: names) {
                "did you mean '\(nearest)'?"
            } else if names.isEmpty {
                "this route takes none."
            } else {
                "known parameters: \(names.sorted().joined(separator: ", "))."
            }
        throw APIError(.badRequest, "unknown_parameter", "unknown parameter '\(unknown)'; \(hint)")
    }

    /// The first value of a name, or `nil` when absent.
    subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The first value of a name, or `nil` when absent or empty (an untouched form field).
    func nonEmpty(_ name: String) -> String? {
        self[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
