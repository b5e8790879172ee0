import ArgumentParser
import DecodeWatchCore
import DecodeWatchServer
import DecodeWatchStore
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch issue`: a group's issue in the backend team's tracker (docs/cli.md#issue).
    struct Issue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open a group's issue in the backend team's GitHub repository.", subcommands: [Create.self])

        /// `decodewatch issue create GROUP --github OWNER/REPO`: opens the group's issue once and prints its address.
        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Open a GitHub issue for a group, with its backend report as the body; once per group.",
                discussion: """
                    The issue's address is stored on the group: a second run prints it and opens nothing. The token \
                    comes from --github-token-file or GITHUB_TOKEN, never from an argument.
                    """)

            @OptionGroup var target: GroupArgument
            @Option(
                name: .customLong("github"),
                help: ArgumentHelp("The repository to open the issue in.", valueName: "owner/repo"))
            var repository: String
            @OptionGroup var github: GitHubOptions
            @Option(name: .customLong("label"), help: "A label to put on the issue (repeatable).")
            var labels: [String] = []
            @Option(
                help:
                    "The dashboard's public URL, e.g. https://decodewatch.example.com; the issue links the group's page."
            )
            var publicURL: String?
            @OptionGroup var store: StoreOptions
            @OptionGroup var databaseOnly: DatabaseOnlyOptions

            func validate() throws {
                try target.check()
                _ = try github.client(repository: repository, flag: "--github")
                if let publicURL, URL(string: publicURL)?.host == nil {
                    throw ValidationError(
                        "--public-url '\(publicURL)' must be an http(s) URL such as https://decodewatch.example.com.")
                }
                for label in labels where label.trimmingCharacters(in: .whitespaces).isEmpty {
                    throw ValidationError("--label must not be empty.")
                }
            }

            func run() async throws {
                let client = try github.client(repository: repository, flag: "--github")
                let (id, outcome) = try await store.withStore { store in
                    let id = try await store.groupID(startingWith: target.group)
                    let opener = GroupIssueOpener(
                        store: store, github: client, labels: labels, dashboard: publicURL.flatMap(URL.init(string:)))
                    return (id, try await opener.open(group: id, by: LocalActor.name))
                }
                switch outcome {
                case .opened(let url):
                    print(url)
                    note("Opened a GitHub issue for group \(id) in \(client.repository).")
                case .existing(let url):
                    print(url)
                    note("Group \(id) already has a GitHub issue; none was opened.")
                }
            }

            private func note(_ sentence: String) {
                FileHandle.standardError.write(Data((sentence + "\n").utf8))
            }
        }
    }
}
