import ArgumentParser
import DecodeWatchStore

extension DecodeWatchCommand {
    /// `decodewatch tokens`: read tokens for the query API, resolve and the dashboard (docs/cli.md#keys-and-tokens).
    struct Tokens: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create, list and revoke read tokens for the query API.",
            discussion: """
                Once any read token exists, GET /v1/fields, resolve (and /metrics with --metrics-require-token) \
                need 'Authorization: Bearer <token>'; /healthz and /readyz stay open. Only a SHA-256 of each \
                token is stored; the token is printed once, on standard output.
                """,
            subcommands: [Create.self, ListCredentials<ReadTokenTag>.self, RevokeCredential<ReadTokenTag>.self])

        /// `decodewatch tokens create --name N`.
        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Create a read token and print it once.")
            @Option(help: "Who or what uses the token, e.g. grafana or alice.") var name: String
            @OptionGroup var store: StoreOptions
            @OptionGroup var databaseOnly: DatabaseOnlyOptions
            @Flag(help: StoreOptions.createHelp) var create = false

            func validate() throws { try CredentialActions.check(name, option: "--name") }

            func run() async throws {
                try await CredentialActions.create(kind: .read, app: nil, name: name, store: store, createFlag: create)
            }
        }
    }
}
