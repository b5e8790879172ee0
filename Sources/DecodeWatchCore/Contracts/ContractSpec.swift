/// What an imported OpenAPI document promises about response bodies: its operations and their schemas.
///
/// The stored, resolved form of a contract (see `decodewatch contracts import`): only what drift needs,
/// so it stays small and reads the same whatever OpenAPI version it came from.
public struct ContractSpec: Codable, Sendable {
    /// The OpenAPI version the document declared, such as `3.0.3` or `3.1.0`.
    public var openapi: String
    /// The document's `info.title`.
    public var title: String
    /// The document's `info.version`.
    public var version: String
    /// Path prefixes of the document's servers (`/v3` for `https://api.example.com/v3`), removed from
    /// endpoints before matching.
    public var basePaths: [String]
    /// The operations, in document order.
    public var operations: [ContractOperation]
    /// The shared schemas (`components.schemas`) that ``ContractSchema/ref`` names.
    public var schemas: [String: ContractSchema]

    /// Creates a contract.
    /// - Parameters:
    ///   - openapi: the OpenAPI version the document declared.
    ///   - title: the document's `info.title`.
    ///   - version: the document's `info.version`.
    ///   - servers: the URLs of the document's servers, as written; each gives its path to ``basePaths``.
    ///   - operations: the operations, in document order.
    ///   - schemas: the shared schemas.
    public init(
        openapi: String, title: String, version: String, servers: [String] = [], operations: [ContractOperation],
        schemas: [String: ContractSchema] = [:]
    ) {
        self.openapi = openapi
        self.title = title
        self.version = version
        self.basePaths = servers.compactMap(Self.basePath(ofServer:))
        self.operations = operations
        self.schemas = schemas
    }

    /// The path a server URL puts before every endpoint (`/v3` for `https://api.example.com/v3/`), or `nil` when it
    /// puts none or a templated one (`/{version}`), which cannot be removed as text.
    static func basePath(ofServer url: String) -> String? {
        var text = url
        if let scheme = text.range(of: "://") {
            let rest = text[scheme.upperBound...]
            text = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
        }
        while text.hasSuffix("/") { text.removeLast() }
        guard text.hasPrefix("/"), !text.contains("{") else { return nil }
        return text
    }
}

/// One operation of a contract: a method, a path template and its successful JSON responses.
public struct ContractOperation: Codable, Sendable {
    /// The upper-case method, such as `GET`.
    public var method: String
    /// The path template as the document writes it, such as `/repos/{owner}/{repo}/issues`.
    public var path: String
    /// The successful responses with a JSON body, most specific status first (`200`, `201`, `2XX`, `default`).
    public var responses: [ContractResponse]

    /// Creates an operation.
    public init(method: String, path: String, responses: [ContractResponse]) {
        self.method = method
        self.path = path
        self.responses = responses
    }

    /// `METHOD /path`, as the spec names it.
    public var name: String { "\(method) \(path)" }
}

/// A successful response of an operation and the schema of its JSON body.
public struct ContractResponse: Codable, Sendable {
    /// The status as written: `200`, `2XX` or `default`.
    public var status: String
    /// The body's schema.
    public var schema: ContractSchema

    /// Creates a response.
    public init(status: String, schema: ContractSchema) {
        self.status = status
        self.schema = schema
    }
}
