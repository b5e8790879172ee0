import Foundation

/// A batch's body as the collector received it, before inflating.
///
/// A sink that acknowledges a batch before writing its rollups keeps this in its log, so that after a crash the
/// batch can be decoded again and its rollups written then.
public struct BatchSource: Sendable {
    /// How the body is compressed (its `Content-Encoding`).
    public enum Encoding: String, Sendable {
        case identity
        case deflate
        case gzip
    }

    /// The bytes as received.
    public var body: Data
    /// How they are compressed.
    public var encoding: Encoding

    /// Pairs a body with its encoding.
    public init(body: Data, encoding: Encoding) {
        self.body = body
        self.encoding = encoding
    }
}
