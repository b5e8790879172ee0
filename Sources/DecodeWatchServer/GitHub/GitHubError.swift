import Foundation

/// GitHub could not be reached, or refused to open an issue: one sentence saying what to do about it.
public struct GitHubError: Error, CustomStringConvertible, Sendable {
    /// The sentence.
    public let message: String

    /// An error with this sentence.
    public init(_ message: String) { self.message = message }

    public var description: String { message }

    /// The sentence for a refusal, from GitHub's status and its error document
    /// (`{"message": "…", "errors": [{"resource", "field", "code", "message"}], "documentation_url": "…"}`).
    /// - Parameters:
    ///   - status: the HTTP status GitHub answered.
    ///   - body: its answer, GitHub's error document or anything else.
    ///   - repository: where the issue was to be opened.
    ///   - rateLimitExhausted: whether `X-RateLimit-Remaining` was 0.
    init(status: Int, body: Data, repository: GitHubRepository, rateLimitExhausted: Bool) {
        let answer = try? JSONDecoder().decode(Answer.self, from: body)
        let said = answer?.message.map { ": \($0)" } ?? ""
        switch status {
        case 401:
            message =
                "GitHub refused the token (401\(said)): it is wrong, expired or revoked. Make a new one that may write "
                + "issues in \(repository) and pass it with --github-token-file or GITHUB_TOKEN."
        case 403 where rateLimitExhausted || (answer?.message ?? "").lowercased().contains("rate limit"):
            message =
                "GitHub's rate limit for this token is used up (403\(said)); try again in an hour, or with another "
                + "token."
        case 403:
            message =
                "The token may not open issues in \(repository) (403\(said)): give it the Issues read and write "
                + "permission on that repository (fine-grained) or the repo scope (classic)."
        case 404:
            message =
                "GitHub has no repository \(repository) that this token can see (404\(said)): check the name, and that "
                + "the token was given access to it (a private repository is 404 to a token without access)."
        case 410:
            message =
                "Issues are turned off in \(repository) (410\(said)): turn them on in the repository's settings "
                + "(General › Features › Issues), or open the issue in another repository."
        case 422:
            let errors = (answer?.errors ?? []).map(\.sentence).joined(separator: "; ")
            message =
                "GitHub refused the issue as invalid (422\(said)\(errors.isEmpty ? "" : " — " + errors)); check the "
                + "--label values, and that \(repository) accepts issues."
        default:
            message =
                "GitHub answered HTTP \(status) for \(repository)\(said.isEmpty ? "" : " (\(said.dropFirst(2)))") "
                + "instead of opening the issue; try again later, and check --github-api-url."
        }
    }

    /// GitHub's error document.
    private struct Answer: Decodable {
        struct Problem: Decodable {
            let resource: String?
            let field: String?
            let code: String?
            let message: String?

            /// Reads a problem as an object, or as the plain string some answers give instead.
            init(from decoder: any Decoder) throws {
                if let text = try? decoder.singleValueContainer().decode(String.self) {
                    (resource, field, code, message) = (nil, nil, nil, text)
                    return
                }
                let container = try decoder.container(keyedBy: CodingKeys.self)
                resource = try container.decodeIfPresent(String.self, forKey: .resource)
                field = try container.decodeIfPresent(String.self, forKey: .field)
                code = try container.decodeIfPresent(String.self, forKey: .code)
                message = try container.decodeIfPresent(String.self, forKey: .message)
            }

            enum CodingKeys: String, CodingKey { case resource, field, code, message }

            /// `Issue.title missing_field`, or GitHub's own message for a `custom` problem.
            var sentence: String {
                let place = [resource, field].compactMap { $0 }.joined(separator: ".")
                let what = message ?? code ?? "invalid"
                return place.isEmpty ? what : "\(place) \(what)"
            }
        }

        let message: String?
        let errors: [Problem]?
    }
}
