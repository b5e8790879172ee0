import ArgumentParser
import DecodeWatch
import DecodeWatchServer
import DecodeWatchWire
import Foundation

/// How to reach GitHub's REST API to open issues (docs/cli.md#issue): the token and the API's address, shared by
/// `issue create` and `serve`, each of which names the repository with its own flag.
///
/// The token is read from a file or `GITHUB_TOKEN`, never from an argument, so that it stays out of process lists and
/// shell history.
struct GitHubOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A file holding the GitHub token (default: $GITHUB_TOKEN); it must be allowed to write issues.",
            valueName: "path"))
    var githubTokenFile: String?

    @Option(
        name: .customLong("github-api-url"),
        help: ArgumentHelp(
            "GitHub's API, e.g. https://github.example.com/api/v3 for GitHub Enterprise Server "
                + "(default: \(GitHubIssues.defaultAPI.absoluteString)).", valueName: "url"))
    var githubAPIURL: String?

    /// Whether any of these options was given, for a command that needs them only with its repository flag.
    var isGiven: Bool { githubTokenFile != nil || githubAPIURL != nil }

    /// The client for a repository, with the token from `--github-token-file` or `GITHUB_TOKEN`.
    /// - Parameters:
    ///   - text: the repository as typed, `OWNER/REPO`.
    ///   - flag: the flag that named it, for the sentences.
    ///   - environment: where `GITHUB_TOKEN` is read.
    /// - Throws: `ValidationError` for a malformed repository or API address, or no usable token.
    func client(
        repository text: String, flag: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> GitHubIssues {
        guard let repository = GitHubRepository(text) else {
            throw ValidationError("\(flag) '\(text)' must be OWNER/REPO, such as octo/shop-api.")
        }
        var api = GitHubIssues.defaultAPI
        if let githubAPIURL {
            guard let url = URL(string: githubAPIURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else {
                throw ValidationError(
                    "--github-api-url '\(githubAPIURL)' must be an http(s) URL such as https://github.example.com/api/v3."
                )
            }
            api = url
        }
        return GitHubIssues(
            api: api, repository: repository, token: try token(for: repository, environment: environment),
            userAgent: "decodewatch/\(SDKInfo.decodeWatchVersion)")
    }

    /// The token, from the file when one is given, else `GITHUB_TOKEN`; surrounding white space dropped.
    private func token(for repository: GitHubRepository, environment: [String: String]) throws -> String {
        guard let githubTokenFile else {
            guard let token = environment["GITHUB_TOKEN"].map(Self.trimmed), !token.isEmpty else {
                throw ValidationError(
                    "No GitHub token: set GITHUB_TOKEN or pass --github-token-file PATH, with a token that may write "
                        + "issues in \(repository).")
            }
            return token
        }
        let text: String
        do { text = try String(contentsOfFile: githubTokenFile, encoding: .utf8) } catch {
            throw ValidationError(
                "Cannot read the GitHub token file \(githubTokenFile): check the path and that this user may read it.")
        }
        let token = Self.trimmed(text)
        guard !token.isEmpty else {
            throw ValidationError("The GitHub token file \(githubTokenFile) is empty: write the token into it.")
        }
        return token
    }

    private static func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
}
