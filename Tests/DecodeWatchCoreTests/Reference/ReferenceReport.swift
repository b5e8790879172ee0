@_spi(WireInternals) import DecodeWatchWire
import Foundation

@testable import DecodeWatchCore

/// A report decoded as `Report` decodes it, field by field in the same order, with the rule the collector added
/// since: a string holding U+0000 is refused at its field (``BatchDecoder/nulProblem``).
struct ReferenceReport: Decodable {
    let report: Report

    init(from decoder: any Decoder) throws {
        typealias Keys = Report.CodingKeys
        let container = try decoder.container(keyedBy: Keys.self)
        func storable(_ text: String?, _ key: Keys) throws -> String? {
            guard let text, text.utf8.contains(0) else { return text }
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: BatchDecoder.nulProblem)
        }
        let time = try container.decode(String.self, forKey: .occurredAt)
        guard let date = RFC3339.date(from: time) else {
            throw DecodingError.dataCorruptedError(
                forKey: .occurredAt, in: container, debugDescription: "not an RFC 3339 time: \(time)")
        }
        let endpoint = try storable(try container.decode(String.self, forKey: .endpoint), .endpoint)!
        let type = try storable(try container.decodeIfPresent(String.self, forKey: .type), .type)
        // The first problem of the path is named: a key holding U+0000 before an element of the wrong type too.
        let nul = (try? container.decode([KeyText].self, forKey: .path))?.firstIndex {
            $0.text?.utf8.contains(0) == true
        }
        func nulProblem(at index: Int) -> DecodingError {
            DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath + [Keys.path, PathIndex(intValue: index)],
                    debugDescription: BatchDecoder.nulProblem))
        }
        let path: [PathElement]
        do {
            path = try container.decode([PathElement].self, forKey: .path)
        } catch let error as DecodingError {
            if let nul, case .typeMismatch(_, let context) = error, let at = context.codingPath.last?.intValue, nul < at
            {
                throw nulProblem(at: nul)
            }
            throw error
        }
        if let nul { throw nulProblem(at: nul) }
        let kind = try container.decode(String.self, forKey: .kind)
        guard let known = ReportKind(rawValue: kind) else {
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "unknown kind '\(kind)'")
        }
        report = Report(
            occurredAt: date, endpoint: endpoint, type: type, path: path, kind: known,
            expected: try storable(try container.decodeIfPresent(String.self, forKey: .expected), .expected),
            message: try storable(try container.decodeIfPresent(String.self, forKey: .message), .message),
            snippet: try storable(try container.decodeIfPresent(String.self, forKey: .snippet), .snippet),
            count: try container.decodeIfPresent(Int.self, forKey: .count) ?? 1,
            keyDecoding: try Report.keyDecoding(in: container))
    }

    /// A path element's text when it is a string.
    private struct KeyText: Decodable {
        let text: String?
        init(from decoder: any Decoder) throws { text = try? decoder.singleValueContainer().decode(String.self) }
    }

    /// An array index in a coding path.
    private struct PathIndex: CodingKey {
        var intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }
}

/// A `decodes` entry, with the same rule for its endpoint.
struct ReferenceDecodeCount: Decodable {
    let entry: DecodeCount

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let endpoint = try container.decode(String.self, forKey: .endpoint)
        if endpoint.utf8.contains(0) {
            throw DecodingError.dataCorruptedError(
                forKey: .endpoint, in: container, debugDescription: BatchDecoder.nulProblem)
        }
        entry = DecodeCount(endpoint: endpoint, count: try container.decode(Int.self, forKey: .count))
    }

    private enum Keys: String, CodingKey { case endpoint, count }
}
