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
        var (endpoint, form) = (endpoint, [UInt8]())
        guard endpoint.withUTF8({ normalize(utf8: $0, into: &form) }) else { return nil }
        return String(decoding: form, as: UTF8.self)
    }

    /// Writes the grouping form of the endpoint whose UTF-8 is `bytes` into `form`, in place of what it held, as
    /// ``normalize(_:)`` makes it: a caller that normalizes many endpoints reuses one buffer and makes a string only
    /// of a form it has not met.
    /// - Returns: `false` when the text is not `"METHOD /path"` or `"METHOD scheme://host/path"`; `form` is then
    ///   empty.
    @_spi(WireInternals)
    public func normalize(utf8 bytes: UnsafeBufferPointer<UInt8>, into form: inout [UInt8]) -> Bool {
        // One pass over the bytes in place, writing the result as it goes: splitting into substrings and joining
        // them took a fifth of the one-core loop on realistic batches, where nearly every endpoint carries an id.
        form.removeAll(keepingCapacity: true)
        guard let parts = Self.parts(of: bytes) else { return false }
        if !templates.isEmpty {
            let (method, segments) = Self.texts(of: bytes, parts)
            for template in templates where template.matches(method: method, segments: segments) {
                form.append(contentsOf: template.normalized.utf8)
                return true
            }
        }
        form.reserveCapacity(parts.method.count + parts.path.count + 8)
        for byte in bytes[parts.method] { form.append(byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte) }
        form.append(Self.space)
        form.append(Self.slash)
        var first = true
        Self.forEachSegment(of: bytes, path: parts.path) { segment in
            if !first { form.append(Self.slash) }
            first = false
            let segmentBytes = UnsafeBufferPointer(rebasing: bytes[segment])
            if Self.isIdentifier(segmentBytes) {
                form.append(contentsOf: "{id}".utf8)
            } else {
                form.append(contentsOf: segmentBytes)
            }
        }
        return true
    }

    /// Where the method and the path of `"METHOD target"` lie among its bytes: the path without scheme, authority,
    /// query or fragment.
    ///
    /// Endpoints are read as UTF-8 bytes, as servers read request lines: a space, `?`, `#` or `/` is one byte
    /// whatever follows it.
    static func parts(of bytes: UnsafeBufferPointer<UInt8>) -> (method: Range<Int>, path: Range<Int>)? {
        guard let start = bytes.firstIndex(where: { $0 != space }),
            let gap = bytes[start...].firstIndex(of: space)
        else { return nil }
        guard bytes[start..<gap].allSatisfy(isTokenByte), let target = bytes[gap...].firstIndex(where: { $0 != space }),
            !bytes[target...].contains(space)
        else { return nil }
        var path = target..<(bytes[target...].firstIndex { $0 == question || $0 == hash } ?? bytes.endIndex)
        if bytes[path].first != slash, let authority = path.first(where: { bytes[$0...].starts(with: "://".utf8) }) {
            let afterScheme = (authority + 3)..<path.upperBound
            path = (bytes[afterScheme].firstIndex(of: slash) ?? path.upperBound)..<path.upperBound
        }
        return (start..<gap, path)
    }

    /// Calls `body` with each non-empty segment of a path, in order.
    static func forEachSegment(of bytes: UnsafeBufferPointer<UInt8>, path: Range<Int>, _ body: (Range<Int>) -> Void) {
        var start = path.lowerBound
        for index in path where bytes[index] == slash {
            if index > start { body(start..<index) }
            start = index + 1
        }
        if path.upperBound > start { body(start..<path.upperBound) }
    }

    /// The upper-cased method and the non-empty path segments that ``parts(of:)`` found, as text, for matching
    /// route templates. The bytes lie between whole characters: they are split only at ASCII bytes.
    static func texts(
        of bytes: UnsafeBufferPointer<UInt8>, _ parts: (method: Range<Int>, path: Range<Int>)
    ) -> (method: String, segments: [Substring]) {
        func text(_ range: Range<Int>) -> Substring {
            Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        }
        var segments: [Substring] = []
        forEachSegment(of: bytes, path: parts.path) { segments.append(text($0)) }
        return (text(parts.method).uppercased(), segments)
    }

    private static let space = UInt8(ascii: " ")
    private static let slash = UInt8(ascii: "/")
    private static let question = UInt8(ascii: "?")
    private static let hash = UInt8(ascii: "#")

    /// Whether a segment or key names one entity rather than a route: all digits, a UUID, a hex string
    /// of 16 or more characters, or an already templated `{anything}`.
    static func isIdentifier(_ bytes: some BidirectionalCollection<UInt8>) -> Bool {
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
        var text = text
        guard
            let (method, parts) = text.withUTF8({ bytes -> (String, [Substring])? in
                EndpointNormalizer.parts(of: bytes).map { EndpointNormalizer.texts(of: bytes, $0) }
            })
        else { return nil }
        self.method = method
        self.segments = parts.map { $0.first == "{" && $0.last == "}" ? nil : $0 }
        self.normalized = method + " /" + parts.joined(separator: "/")
    }

    func matches(method: String, segments other: [Substring]) -> Bool {
        guard method == self.method, other.count == segments.count else { return false }
        return zip(segments, other).allSatisfy { template, segment in template == nil || template == segment }
    }
}
