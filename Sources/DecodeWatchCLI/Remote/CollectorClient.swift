import DecodeWatchServer
import DecodeWatchStore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running collector's HTTP API, as the remote CLI uses it (docs/cli.md#remote): the same documents the
/// database commands print, fetched with a read token.
struct CollectorClient: Sendable {
    /// The collector's address; paths are appended to it.
    let base: URL
    /// The read token, sent as `Authorization: Bearer`.
    let token: String?
    /// How long one request may take.
    var timeout: TimeInterval = 30

    /// `GET path?query`, decoded as `T`.
    func get<T: Decodable>(_ type: T.Type, _ path: String, query: [String: String?] = [:]) async throws -> T {
        try decode(T.self, from: try await send("GET", path, query: query))
    }

    /// Applies a decision through `POST /v1/groups/{group}/…`.
    /// - Returns: the group's full id, as the collector resolved `text`.
    func apply(_ action: GroupAction, to text: String) async throws -> String {
        let group = "/v1/groups/" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text)
        let answer: Data
        switch action {
        case .resolve: answer = try await send("POST", group + "/resolve")
        case .resolveInNextVersion: answer = try await send("POST", group + "/resolve-in-next-version")
        case .unmute: answer = try await send("POST", group + "/unmute")
        case .mute(.period(let seconds)):
            answer = try await send("POST", group + "/mute", query: ["for": "\(Int(seconds))s"])
        case .mute(.occurrences(let count)):
            answer = try await send("POST", group + "/mute", query: ["count": String(count)])
        }
        struct Answer: Decodable { let group: String }
        return try decode(Answer.self, from: answer).group
    }

    /// Makes a key or token through `POST /v1/keys` or `/v1/tokens` (an admin token's work).
    /// - Returns: the credential and its secret, which the collector shows this once.
    func createCredential(
        kind: CredentialKind, app: String?, name: String?, scope: TokenScope
    ) async throws -> (Credential, String) {
        var draft: [String: String] = [:]
        draft["app"] = app
        draft["name"] = name
        if kind == .read { draft["scope"] = scope.rawValue }
        let answer = try await send("POST", "/v1/\(kind.collection)", body: try JSONEncoder().encode(draft))
        struct Secret: Decodable { let secret: String }
        return (try decode(Credential.self, from: answer), try decode(Secret.self, from: answer).secret)
    }

    /// Every key or token, through `GET /v1/keys` or `/v1/tokens`.
    func credentials(kind: CredentialKind) async throws -> [Credential] {
        try await get([Credential].self, "/v1/\(kind.collection)")
    }

    /// Revokes a key or token through `DELETE /v1/keys/{id}` or `/v1/tokens/{id}`.
    func revokeCredential(kind: CredentialKind, id: String) async throws {
        let escaped = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["_", "-"])) ?? id
        _ = try await send("DELETE", "/v1/\(kind.collection)/\(escaped)")
    }

    private func send(
        _ method: String, _ path: String, query: [String: String?] = [:], body: Data? = nil
    ) async throws -> Data {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)
        if let basePath = components?.percentEncodedPath {
            components?.percentEncodedPath = (basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath) + path
        }
        let items = query.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
        components?.queryItems = items.isEmpty ? nil : items.sorted { $0.name < $1.name }
        guard let url = components?.url else { throw CollectorError("Cannot make a request URL from \(base).") }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await request.sendEphemerally { error in
            CollectorError(
                "Could not connect to the collector at \(base) (\(error.requestProblem)); check that it runs there, "
                    + "and --url or DECODEWATCH_URL.")
        }
        let status = response?.statusCode ?? 0
        if (200..<300).contains(status) { return data }
        if status == 401 {
            throw CollectorError(
                token == nil
                    ? "The collector at \(base) needs a read token: pass --token dwr_… or set DECODEWATCH_TOKEN "
                        + "(made with `decodewatch tokens create` where the database is)."
                    : "The collector at \(base) refused the read token: it is unknown or revoked.")
        }
        struct Failure: Decodable { struct Body: Decodable { let message: String }; let error: Body }
        let message = (try? JSONDecoder().decode(Failure.self, from: data))?.error.message ?? "HTTP \(status)"
        throw CollectorError(message)
    }

    private func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw CollectorError(
                "The collector at \(base) answered with a document this version cannot read: \(error).")
        }
    }
}

/// A collector that could not be asked, or refused; one sentence.
struct CollectorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
