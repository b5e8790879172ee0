import ArgumentParser
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch profiles [--format table|json]`: the profiles `login` stored, never their tokens
    /// (docs/cli.md#login-and-profiles).
    struct Profiles: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the stored profiles: name, collector and which is the default (never the tokens).")

        @Option(help: "Output format: table or json.") var format: CredentialActions.Format = .table

        /// One row of the list, as `--format json` prints it.
        struct Listing: Encodable {
            let name: String
            let url: String
            let `default`: Bool
        }

        func run() async throws {
            let store = ProfileStore()
            let config = try store.load()
            let listings = config.profiles.sorted { $0.key < $1.key }.map { name, profile in
                Listing(name: name, url: profile.url, default: name == config.defaultProfile)
            }
            switch format {
            case .json: print(try CommandJSON.render(listings), terminator: "")
            case .table where listings.isEmpty:
                print(
                    "No profiles in \(store.file.path). Store one with "
                        + "`decodewatch login --url https://decodewatch.example.com`.")
            case .table:
                let rows = listings.map { [$0.name, $0.url, $0.default ? "*" : ""] }
                print(TextTable.render([["PROFILE", "URL", "DEFAULT"]] + rows), terminator: "")
            }
        }
    }
}
