import DecodeWatchZlib
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one way tests talk HTTP to a collector: post batches and read answers.
public struct TestHTTPClient: Sendable {
    /// Sends one request, built by the client's methods, and returns what came back.
    public typealias Transport =
        @Sendable (
            _ method: String, _ path: String, _ body: Data?, _ headers: [String: String]
        ) async throws -> HTTPAnswer

    private let transport: Transport

    /// A client whose requests go through `transport`, such as a collector's router in memory.
    public init(transport: @escaping Transport) {
        self.transport = transport
    }

    /// A collector at `baseURL`, reached with `session`: a session of the test's own, since a pooled connection to
    /// an earlier test server on a recycled port must never be reused.
    public init(baseURL: URL, session: URLSession) {
        self.init { method, path, body, headers in
            var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!)
            request.httpMethod = method
            request.httpBody = body
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let (data, response) = try await session.data(for: request)
            let http = response as! HTTPURLResponse
            return HTTPAnswer(
                status: http.statusCode, headers: http.allHeaderFields as? [String: String] ?? [:], body: data)
        }
    }

    /// A collector on a loopback port.
    public init(port: Int, session: URLSession) {
        self.init(baseURL: URL(string: "http://127.0.0.1:\(port)")!, session: session)
    }

    /// Sends a request and returns the status, headers and body.
    public func send(
        _ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> HTTPAnswer {
        try await transport(method, path, body, headers)
    }

    /// `GET` of a path with its query, with a bearer token when given.
    public func get(_ path: String, token: String? = nil) async throws -> HTTPAnswer {
        try await send("GET", path, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    /// Posts a batch JSON document to `/v1/reports`, compressed as `encoding` says (`deflate`, `gzip`, or `nil` for
    /// none; any other value is sent as the header with the body as it is), with an ingest key when given.
    public func post(
        batch json: Data, encoding: String? = nil, contentType: String = "application/json", key: String? = nil
    ) async throws -> HTTPAnswer {
        var headers = ["Content-Type": contentType]
        if let key { headers["Authorization"] = "Bearer \(key)" }
        var body = json
        switch encoding {
        case "deflate": body = try Zlib.compress(json, format: .zlib)
        case "gzip": body = try Zlib.compress(json, format: .gzip)
        default: break
        }
        if let encoding { headers["Content-Encoding"] = encoding }
        return try await send("POST", "/v1/reports", body: body, headers: headers)
    }

    /// Posts a batch built from a dictionary; see ``post(batch:encoding:contentType:key:)``.
    public func post(batch: [String: Any], encoding: String? = nil, key: String? = nil) async throws -> HTTPAnswer {
        try await post(batch: try JSONSerialization.data(withJSONObject: batch), encoding: encoding, key: key)
    }
}

/// A status, headers and body.
public struct HTTPAnswer: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object, empty when it is not one.
    public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }

    /// The body decoded as `type`; the error names the status and body, so a failed test shows what came back.
    public func decoded<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            throw AnswerNotDecoded(description: "HTTP \(status) is no \(type): \(text.prefix(2000)) (\(error))")
        }
    }

    /// The error body of docs/wire-format.md#errors, `{"error": {"code": …, "message": …}}`.
    public struct ErrorBody: Decodable, Sendable {
        public struct Detail: Decodable, Sendable {
            public let code: String?
            public let message: String?
        }

        public let error: Detail
    }

    /// The `error.code` of an error body (docs/wire-format.md#errors).
    public var errorCode: String? { (try? decoded(ErrorBody.self))?.error.code ?? nil }

    /// The `error.message` of an error body (docs/wire-format.md#errors).
    public var errorMessage: String? { (try? decoded(ErrorBody.self))?.error.message ?? nil }

    public func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// An answer whose body is not what the test expected.
public struct AnswerNotDecoded: Error, CustomStringConvertible {
    public let description: String
}
