import DecodeWatchCore
import DecodeWatchStore
import Foundation

/// The body of `POST /v1/keys` (`{"app": "com.example.shop", "name": "ios-production"}`) or `POST /v1/tokens`
/// (`{"name": "alice", "scope": "triage"}`), checked member by member with the rules of `keys create` and
/// `tokens create`.
struct CredentialDraft: Sendable {
    /// The app an ingest key sends for.
    var app: String?
    /// The operator's name for it: required for tokens, optional for keys.
    var name: String?
    /// What a token may do; `read` unless asked.
    var scope: TokenScope = .read

    /// Reads and checks a body.
    /// - Throws: ``APIError`` 400 `invalid_body` naming the first problem: not a JSON object, an unknown member (with
    ///   the nearest known one), a member of the wrong type or length, a missing required member, an unknown scope.
    init(json data: Data, kind: CredentialKind) throws(APIError) {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw Self.problem(
                kind == .ingest
                    ? #"The body must be a JSON object such as {"app": "com.example.shop", "name": "ios-production"}."#
                    : #"The body must be a JSON object such as {"name": "alice", "scope": "triage"}."#)
        }
        let known = kind == .ingest ? ["app", "name"] : ["name", "scope"]
        for member in object.keys.sorted() where !known.contains(member) {
            let hint = NearestNames.suggestion(for: member, in: known).map { "; did you mean '\($0)'?" } ?? "."
            throw Self.problem("Unknown member '\(member)'\(hint) A \(kind.noun) takes \(Self.list(known)).")
        }
        func text(_ member: String, required: Bool) throws(APIError) -> String? {
            guard let value = object[member], !(value is NSNull) else {
                if required { throw Self.problem("'\(member)' is required: 1–200 characters.") }
                return nil
            }
            guard let string = value as? String, !string.isEmpty, string.count <= 200 else {
                throw Self.problem("'\(member)' must be a string of 1–200 characters.")
            }
            return string
        }
        app = kind == .ingest ? try text("app", required: true) : nil
        name = try text("name", required: kind == .read)
        if kind == .read, let written = try text("scope", required: false) {
            guard let scope = TokenScope(rawValue: written) else {
                throw Self.problem(
                    "Unknown scope '\(written)': use \(Self.list(TokenScope.allCases.map(\.rawValue), joiner: "or")).")
            }
            self.scope = scope
        }
    }

    private static func problem(_ message: String) -> APIError { APIError(.badRequest, "invalid_body", message) }

    /// `'a', 'b' and 'c'`.
    private static func list(_ names: [String], joiner: String = "and") -> String {
        let quoted = names.map { "'\($0)'" }
        return quoted.count < 2
            ? quoted.joined() : quoted.dropLast().joined(separator: ", ") + " \(joiner) " + quoted.last!
    }
}
