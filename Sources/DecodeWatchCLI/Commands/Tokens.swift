import ArgumentParser
import DecodeWatchStore

extension DecodeWatchCommand {
    /// `decodewatch tokens`: read tokens for the query API, the dashboard and `/metrics`, each with a scope that says
    /// whether it may also resolve and mute (docs/cli.md#keys-and-tokens).
    struct Tokens: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create, list and revoke read tokens for the query API.",
            discussion: """
                Once any read token exists, the query API, the dashboard and /metrics (unless serve \
                --public-metrics) need 'Authorization: Bearer <token>'; /healthz and /readyz stay open. A token's \
                scope says what else it may do: 'read' only reads, 'triage' also resolves, mutes and unmutes \
                groups, 'admin' also manages keys and tokens, here or with --url and an admin token. Only a SHA-256 of \
                each token is stored; the token is printed once, on standard output.
                """,
            subcommands: [Create.self, ListCredentials<ReadTokenTag>.self, RevokeCredential<ReadTokenTag>.self])

        /// `decodewatch tokens create --name N [--scope read|triage|admin]`.
        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Create a read token and print it once.")
            @Option(help: "Who or what uses the token, e.g. grafana or alice.") var name: String
            @Option(
                help: ArgumentHelp(
                    "What the token may do: read (queries, dashboard, /metrics), triage (also resolve, mute and "
                        + "unmute) or admin (triage, and managing keys and tokens).",
                    valueName: "read|triage|admin"))
            var scope = TokenScope.read
            @OptionGroup var source: SourceOptions
            @Flag(help: StoreOptions.createHelp) var create = false

            func validate() throws {
                try CredentialActions.check(name, option: "--name")
                try CredentialActions.checkCreate(create, source: source)
            }

            func run() async throws {
                try await CredentialActions.create(
                    kind: .read, app: nil, name: name, scope: scope, source: source, createFlag: create)
            }
        }
    }
}

extension TokenScope: ExpressibleByArgument {}
