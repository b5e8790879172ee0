import Foundation
import Hummingbird

/// A client-facing failure: an HTTP status and the error body of docs/wire-format.md#errors
/// `{"error": {"code": "<snake_case>", "message": "<sentence>"}}`.
public struct APIError: HTTPResponseError, Sendable {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// Stable snake_case code.
    public let code: String
    /// One sentence a person can act on.
    public let message: String
    /// Seconds for `Retry-After`, on 429 and 503.
    public let retryAfter: Int?

    /// Creates an API error.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        // RFC 9110: a 401 names the scheme that would be accepted.
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer realm=\"decodewatch\"" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(["error": ["code": code, "message": message]])
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
