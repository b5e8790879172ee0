import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Opens issues in one GitHub repository through GitHub's REST API (`POST /repos/{owner}/{repo}/issues`), as
/// `decodewatch issue create` and the dashboard's button do (docs/cli.md#issue).
///
/// The token is sent as `Authorization: Bearer` and nowhere else: no error, log line or description repeats it. Every
/// refusal GitHub answers becomes one sentence a person can act on (``GitHubError``).
public struct GitHubIssues: Sendable {
    /// GitHub's API on github.com; GitHub Enterprise Server's is `https://HOST/api/v3`.
    public static let defaultAPI = URL(string: "https://api.github.com")!

    /// The API's address; `/repos/…` is appended to its path.
    public let api: URL
    /// Where issues are opened.
    public let repository: GitHubRepository
    /// Sent as `User-Agent`, which GitHub requires: `decodewatch/<version>`.
    public let userAgent: String
    /// How long one request may take.
    public var timeout: TimeInterval = 30
    /// A token that may write issues in ``repository``.
    private let token: String

    /// Creates a client.
    /// - Parameters:
    ///   - api: the API's address, ``defaultAPI`` for github.com.
    ///   - repository: where issues are opened.
    ///   - token: a token that may write issues there (fine-grained: Issues read and write; classic: `repo`).
    ///   - userAgent: `decodewatch/<version>`.
    public init(api: URL = defaultAPI, repository: GitHubRepository, token: String, userAgent: String) {
        self.api = api
        self.repository = repository
        self.token = token
        self.userAgent = userAgent
    }

    /// An issue GitHub made.
    public struct Issue: Sendable, Hashable, Decodable {
        /// Its page, as people open it.
        public let htmlURL: String
        /// Its number in the repository.
        public let number: Int

        enum CodingKeys: String, CodingKey {
            case number
            case htmlURL = "html_url"
        }
    }

    /// Opens an issue.
    /// - Parameters:
    ///   - title: one line, under 256 characters.
    ///   - body: Markdown.
    ///   - labels: labels to put on it; GitHub leaves them out when the token may not label issues.
    /// - Returns: the issue GitHub made.
    /// - Throws: ``GitHubError`` when GitHub cannot be reached or refuses, or answers something else than an issue.
    public func open(title: String, body: String, labels: [String] = []) async throws -> Issue {
        struct Draft: Encodable {
            let title: String
            let body: String
            let labels: [String]?
        }
        var request = URLRequest(url: issuesURL, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = try JSONEncoder().encode(
            Draft(title: title, body: body, labels: labels.isEmpty ? nil : labels))
        request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("2022-11-28", forHTTPHeaderField: "X-GitHub-Api-Version")
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, http) = try await request.sendEphemerally { error in
            GitHubError(
                "Could not reach GitHub's API at \(api.absoluteString) (\(error.requestProblem)); check the network and "
                    + "--github-api-url (GitHub Enterprise Server's is https://HOST/api/v3).")
        }
        let status = http?.statusCode ?? 0
        guard status == 201 else {
            throw GitHubError(
                status: status, body: data, repository: repository,
                rateLimitExhausted: http?.value(forHTTPHeaderField: "X-RateLimit-Remaining") == "0")
        }
        guard let issue = try? JSONDecoder().decode(Issue.self, from: data) else {
            throw GitHubError(
                "GitHub answered 201 for \(repository) without the new issue's html_url and number; check "
                    + "--github-api-url, which must be GitHub's REST API.")
        }
        return issue
    }

    /// `{api}/repos/{owner}/{repo}/issues`, keeping a path the API has (GitHub Enterprise Server's `/api/v3`).
    private var issuesURL: URL {
        api.appendingPathComponent("repos").appendingPathComponent(repository.owner)
            .appendingPathComponent(repository.name).appendingPathComponent("issues")
    }
}
