import ArgumentParser
import DecodeWatchStore

extension DecodeWatchCommand {
    /// `decodewatch keys`: ingest keys, one app each (docs/cli.md#keys-and-tokens).
    struct Keys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create, list and revoke ingest keys: each lets apps send batches for one app.",
            discussion: """
                Once any ingest key exists, POST /v1/reports needs 'Authorization: Bearer <key>': a missing, \
                unknown or revoked key is answered 401, a key of another app 403. Only a SHA-256 of each \
                key is stored; the key is printed once, on standard output.
                """,
            subcommands: [Create.self, ListCredentials<IngestKeyTag>.self, RevokeCredential<IngestKeyTag>.self])

        /// `decodewatch keys create --app A [--name N]`.
        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Create an ingest key and print it once.")
            @Option(help: "The app id (bundle id) this key sends for.") var app: String
            @Option(help: "A name to recognise the key by, e.g. ios-production.") var name: String?
            @OptionGroup var source: SourceOptions
            @Flag(help: StoreOptions.createHelp) var create = false

            func validate() throws {
                try CredentialActions.check(app, option: "--app")
                if let name { try CredentialActions.check(name, option: "--name") }
                try CredentialActions.checkCreate(create, source: source)
            }

            func run() async throws {
                try await CredentialActions.create(
                    kind: .ingest, app: app, name: name, source: source, createFlag: create)
            }
        }
    }
}
