import DecodeWatchCore
import Foundation

/// Realistic batches for the demo: failures an app decoding the GitHub API would hit when the
/// backend changes under it, sent by three installs on two app versions.
enum DemoBatches {
    static func make(now: Date) -> [ReportBatch] {
        let installs = ["install-a", "install-b", "install-c"]
        return installs.enumerated().map { offset, install in
            let version = offset == 0 ? "2.4.0" : "2.5.0"
            let at = { (minutes: Double) in now.addingTimeInterval(-minutes * 60) }
            var reports = [
                Report(
                    occurredAt: at(50), endpoint: "GET https://api.github.com/repos/octo/shop/issues?per_page=30",
                    type: "Issue", path: [.index(4), .key("author_association")], kind: .unknownValue,
                    expected: "AuthorAssociation",
                    message: "Cannot initialize AuthorAssociation from invalid String value SPONSOR",
                    snippet: #""SPONSOR""#, count: 3 + offset),
                Report(
                    occurredAt: at(40), endpoint: "GET /repos/octo/shop/labels", type: "Label",
                    path: [.index(2), .key("color")], kind: .typeMismatch, expected: "String",
                    message: "Expected to decode String but found number instead.", snippet: #"{"color":16711680,"name":"bug"}"#),
                Report(
                    occurredAt: at(30), endpoint: "GET /users/octocat/gists", type: "Gist",
                    path: [.index(0), .key("files"), .key("it's.md"), .key("raw_url")], kind: .dataCorrupted,
                    expected: "URL", message: "Invalid URL string.", snippet: #"{"raw_url":"not a url","owner":"ann@example.com"}"#),
            ]
            if offset > 0 {
                reports.append(
                    Report(
                        occurredAt: at(20), endpoint: "GET /repos/octo/shop/pulls/\(1340 + offset)", type: "PullRequest",
                        path: [.key("head"), .key("repo")], kind: .valueNotFound, expected: "Repository",
                        message: "Expected Repository value but found null instead.", snippet: #"{"repo":null}"#))
            }
            return ReportBatch(
                batchID: UUID().uuidString, sentAt: now, app: AppInfo(id: "com.example.octo", version: version, platform: "iOS"),
                sdk: SDKInfo(name: "decodewatch-demo", version: "0.1.0"), installID: install,
                decodes: [
                    DecodeCount(endpoint: "GET /repos/octo/shop/issues", count: 40),
                    DecodeCount(endpoint: "GET /repos/octo/shop/labels", count: 25),
                    DecodeCount(endpoint: "GET /users/octocat/gists", count: 10),
                ],
                reports: reports)
        }
    }
}
