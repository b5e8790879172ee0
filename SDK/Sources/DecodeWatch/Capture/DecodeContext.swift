@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// Where a payload came from and where its failures go: the endpoint, the root type and the reporter.
///
/// Wrappers such as ``Safe`` find the context of the payload they are decoding, so that a report can
/// say which endpoint broke. Set it once per response, either by decoding with
/// ``Foundation/JSONDecoder/decode(_:from:endpoint:reporter:)`` (recommended: it also counts the
/// decode and reports a failure of the whole payload) or by hand:
///
/// ```swift
/// let context = DecodeContext(endpoint: "GET /v2/posts", rootType: Page<Post>.self, reporter: reporter)
/// decoder.userInfo[.decodeWatch] = context
/// let page = try decoder.decode(Page<Post>.self, from: data)
/// context.countDecode()
/// ```
///
/// Sampling (``ReporterConfiguration/sampleRate``) is decided once, when the context is made, so
/// that failures and the decodes they are divided by are sampled alike and rates stay unbiased.
public struct DecodeContext: Sendable {
    /// The endpoint in grouping form (docs/wire-format.md#endpoint): `GET /v2/posts/{id}`, without host or query
    /// string.
    ///
    /// Normalizing on the device folds `/posts/41` and `/posts/42` into one report and keeps query
    /// strings, which may carry personal data, off the wire.
    public let endpoint: String
    /// The name of the root type being decoded, e.g. `Page<Post>`, or `nil` when not given.
    public let rootType: String?
    /// The reporter that receives failures.
    public let reporter: Reporter
    /// Whether this response was picked by sampling; failures of an unsampled response are ignored.
    public let isSampled: Bool
    /// How the decoder turns the payload's keys into Swift names, sent with every report.
    let keyDecoding: KeyDecoding
    /// How the payload spelled the keys the decoder converted, so reports name the backend's keys.
    let keySpelling: JSONKeySpelling

    /// The context of the decode running on this task, set by
    /// ``Foundation/JSONDecoder/decode(_:from:endpoint:reporter:)``.
    @TaskLocal static var current: DecodeContext?

    /// Creates a context for one response.
    ///
    /// Decides sampling, and reads the reporter's kill switch: a context made while the reporter is
    /// disabled captures nothing.
    /// - Parameters:
    ///   - endpoint: `"METHOD /path"` (a query string or an absolute URL is fine), e.g. `GET /v2/posts?page=2`;
    ///     a URL without a method is reported as `UNKNOWN /path`, and unusable text as `UNKNOWN /`.
    ///   - rootType: the type decoded at the payload root, used as `reports[].type`.
    ///   - reporter: where failures go.
    ///   - keyDecodingStrategy: the decoder's; with `convertFromSnakeCase`, reported paths and snippets
    ///     spell keys as the payload did (`created_at`), not as the Swift properties (`createdAt`).
    public init(
        endpoint: String, rootType: Any.Type? = nil, reporter: Reporter,
        keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    ) {
        self.endpoint = Self.normalizer.reportingForm(of: endpoint)
        self.rootType = rootType.map(TypeName.of)
        self.reporter = reporter
        self.isSampled = reporter.samples()
        self.keyDecoding = KeyDecoding(keyDecodingStrategy)
        self.keySpelling = JSONKeySpelling(keyDecoding)
    }

    /// Counts one decoded response of this endpoint, failed or not: the denominator of the breaking rate.
    ///
    /// Call it once per response when you set the context by hand; the `JSONDecoder` convenience
    /// calls it for you. Does nothing when the response was not sampled.
    public func countDecode() {
        guard isSampled else { return }
        reporter.countDecode(endpoint: endpoint)
    }

    private static let normalizer = EndpointNormalizer()
}

extension KeyDecoding {
    /// The wire's name for a decoder's strategy.
    init(_ strategy: JSONDecoder.KeyDecodingStrategy) {
        switch strategy {
        case .useDefaultKeys: self = .useDefaultKeys
        case .convertFromSnakeCase: self = .convertFromSnakeCase
        default: self = .custom
        }
    }
}

extension CodingUserInfoKey {
    /// The `userInfo` key under which a decoder carries its ``DecodeContext``.
    public static let decodeWatch = CodingUserInfoKey(rawValue: "DecodeWatch.DecodeContext")!
}
