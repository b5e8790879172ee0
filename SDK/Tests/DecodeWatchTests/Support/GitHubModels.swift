import DecodeWatch
import Foundation

// App models of GitHub's REST API, written the way an app would: strict types, snake_case keys.

struct GitHubUser: Decodable, Equatable {
    let login: String
    let id: Int
    let nodeID: Id<GitHubUser>
    let siteAdmin: Bool

    enum CodingKeys: String, CodingKey {
        case login, id
        case nodeID = "node_id"
        case siteAdmin = "site_admin"
    }
}

enum IssueState: String, SafeEnum, Codable {
    case open, closed, unknown
}

enum AuthorAssociation: String, SafeEnum, Codable {
    case owner = "OWNER", member = "MEMBER", collaborator = "COLLABORATOR", contributor = "CONTRIBUTOR"
    case none = "NONE", unknown
}

struct GitHubIssue: Decodable {
    let id: Int
    let nodeID: Id<GitHubIssue>
    let number: Int
    let title: String
    let user: GitHubUser
    let state: IssueState
    let comments: Int
    let createdAt: Date
    let authorAssociation: AuthorAssociation
    let body: String?

    enum CodingKeys: String, CodingKey {
        case id, number, title, user, state, comments, body
        case nodeID = "node_id"
        case createdAt = "created_at"
        case authorAssociation = "author_association"
    }
}

struct Label: Decodable, Equatable {
    let id: Int
    let name: String
    let color: String
}

struct SearchResult: Decodable {
    let totalCount: Int
    @SafeArray var items: [GitHubIssue]

    enum CodingKeys: String, CodingKey {
        case totalCount = "total_count"
        case items
    }
}

/// The decoder an app would use for GitHub: ISO 8601 dates.
func gitHubDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
}
