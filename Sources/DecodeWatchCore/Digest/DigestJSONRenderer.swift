import Foundation

/// Renders a digest as the JSON document of `schemas/digest.v1.schema.json`.
public enum DigestJSONRenderer {
    /// Renders a digest.
    /// - Parameter digest: the digest.
    /// - Returns: pretty-printed JSON with sorted keys, ending with a newline.
    public static func render(_ digest: Digest) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain values cannot fail; an empty object keeps the output JSON if it ever did.
        let data = (try? encoder.encode(digest)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads a digest written by ``render(_:)``.
    /// - Throws: `DecodingError` when the text is not a version-1 digest.
    public static func decode(_ data: Data) throws -> Digest {
        try JSONDecoder().decode(Digest.self, from: data)
    }
}

/// The output formats of `decodewatch digest`.
public enum DigestFormat: String, Sendable, CaseIterable {
    /// CommonMark (default).
    case markdown
    /// A self-contained HTML page with charts.
    case html
    /// The JSON document of `schemas/digest.v1.schema.json`.
    case json

    /// Renders a digest in this format.
    public func render(_ digest: Digest) -> String {
        switch self {
        case .markdown: return DigestMarkdownRenderer.render(digest)
        case .html: return DigestHTMLRenderer.render(digest)
        case .json: return DigestJSONRenderer.render(digest)
        }
    }
}
