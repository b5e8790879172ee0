/// Turns a reported endpoint into its grouping form (docs/wire-format.md#endpoint).
///
/// `get /v2/users/42/posts?page=2` becomes `GET /v2/users/{id}/posts`. Operator-defined route
/// templates are tried first, so `GET /v2/posts/my-first-post` can become `GET /v2/posts/{slug}`.
public struct EndpointNormalizer: Sendable {
    /// Route templates tried before the generic rules, in order.
    public let templates: [RouteTemplate]

    /// Creates a normalizer.
    /// - Parameter templates: operator-defined routes such as `GET /v2/posts/{slug}`; the first match wins.
    public init(templates: [RouteTemplate] = []) {
        self.templates = templates
    }

    /// Normalizes an endpoint.
    /// - Returns: `"METHOD /path"` in grouping form, or `nil` when the text is not `"METHOD /path"` or
    ///   `"METHOD scheme://host/path"`.
    public func normalize(_ endpoint: String) -> String? {
        guard let (method, rawPath) = Self.split(endpoint) else { return nil }
        let segments = Self.segments(ofPath: rawPath)
        for template in templates where template.matches(method: method, segments: segments) {
            return template.normalized
        }
        let path = segments.map { Self.isIdentifier($0) ? "{id}" : $0 }.joined(separator: "/")
        return method + " /" + path
    }

    /// Splits `"METHOD target"` into an upper-cased method and the raw target.
    ///
    /// Endpoints are read as UTF-8 bytes, as servers read request lines: a space, `?`, `#` or `/` is one byte
    /// whatever follows it.
    static func split(_ endpoint: String) -> (String, Substring)? {
        let bytes = endpoint.utf8
        guard let start = bytes.firstIndex(where: { $0 != space }),
            let gap = bytes[start...].firstIndex(of: space)
        else { return nil }
        let method = bytes[start..<gap]
        guard method.allSatisfy(isTokenByte), let target = bytes[gap...].firstIndex(where: { $0 != space }),
            !bytes[target...].contains(space)
        else { return nil }
        return (Substring(method).uppercased(), Substring(bytes[target...]))
    }

    /// The non-empty path segments of a target, without scheme, authority, query or fragment.
    static func segments(ofPath target: Substring) -> [Substring] {
        var path = target.utf8[...]
        if let end = path.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            path = path[..<end]
        }
        if path.first != slash, let authority = path.indices.first(where: { path[$0...].starts(with: "://".utf8) }) {
            let afterScheme = path[path.index(authority, offsetBy: 3)...]
            path = afterScheme.firstIndex(of: slash).map { afterScheme[$0...] } ?? afterScheme[afterScheme.endIndex...]
        }
        return path.split(separator: slash).map(Substring.init)
    }

    private static let space = UInt8(ascii: " ")
    private static let slash = UInt8(ascii: "/")

    /// Whether a segment or key names one entity rather than a route: all digits, a UUID, a hex string
    /// of 16 or more characters, or an already templated `{anything}`.
    static func isIdentifier(_ segment: Substring) -> Bool {
        let bytes = segment.utf8
        if bytes.count >= 2 && bytes.first == UInt8(ascii: "{") && bytes.last == UInt8(ascii: "}") { return true }
        return isIdentifierKey(bytes)
    }

    /// Whether an object key, given as its UTF-8, names one entity (docs/wire-format.md#path): all digits, a UUID or
    /// long hex.
    static func isIdentifierKey(_ bytes: some Collection<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        if bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        if bytes.count >= 16 && bytes.allSatisfy(isHexByte) { return true }
        return isUUID(bytes)
    }

    private static func isUUID<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        guard bytes.count == 36 else { return false }
        for (offset, byte) in bytes.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == 0x2D else { return false }
            } else if !isHexByte(byte) {
                return false
            }
        }
        return true
    }

    private static func isHexByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    // RFC 9110 token characters, enough to reject garbage methods.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x2D || byte == 0x5F || byte == 0x2E
    }
}

/// An operator-defined route such as `GET /v2/posts/{slug}` (docs/wire-format.md#endpoint).
///
/// A `{name}` segment matches any one segment; every other segment must match exactly. A match
/// normalizes to the template as written, with the method upper-cased.
public struct RouteTemplate: Sendable, Hashable {
    /// The template in its normalized spelling, e.g. `GET /v2/posts/{slug}`.
    public let normalized: String
    private let method: String
    private let segments: [Substring?]

    /// Parses a template.
    /// - Returns: `nil` when the text is not `"METHOD /path"`.
    public init?(_ text: String) {
        guard let (method, target) = EndpointNormalizer.split(text) else { return nil }
        let parts = EndpointNormalizer.segments(ofPath: target)
        self.method = method
        self.segments = parts.map { $0.first == "{" && $0.last == "}" ? nil : $0 }
        self.normalized = method + " /" + parts.joined(separator: "/")
    }

    func matches(method: String, segments other: [Substring]) -> Bool {
        guard method == self.method, other.count == segments.count else { return false }
        return zip(segments, other).allSatisfy { template, segment in template == nil || template == segment }
    }
}
