import ArgumentParser
import DecodeWatchStore

/// Names a kind of credential at the type level, so `keys` and `tokens` share their subcommands.
protocol CredentialKindTag: Sendable {
    /// The kind.
    static var kind: CredentialKind { get }
}

extension CredentialKindTag {
    /// What one is called in help texts, e.g. `ingest key`.
    static var noun: String { kind.noun }
    /// The parent command, e.g. `keys`.
    static var command: String { kind.collection }
}

/// Ingest keys, for `decodewatch keys`.
enum IngestKeyTag: CredentialKindTag {
    static let kind = CredentialKind.ingest
}

/// Read tokens, for `decodewatch tokens`.
enum ReadTokenTag: CredentialKindTag {
    static let kind = CredentialKind.read
}

/// `decodewatch keys list` and `decodewatch tokens list`.
struct ListCredentials<Tag: CredentialKindTag>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "list", abstract: "List \(Tag.noun)s (never their secrets).")
    }
    @Option(help: "Output format: table or json.") var format: CredentialActions.Format = .table
    @OptionGroup var source: SourceOptions

    func run() async throws {
        try await CredentialActions.list(kind: Tag.kind, format: format, source: source)
    }
}

/// `decodewatch keys revoke ID` and `decodewatch tokens revoke ID`.
struct RevokeCredential<Tag: CredentialKindTag>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "revoke", abstract: "Revoke \(Tag.noun) ID; collectors refuse it within seconds.")
    }
    @Argument(help: ArgumentHelp("The id, as shown by `decodewatch \(Tag.command) list`.")) var id: String
    @OptionGroup var source: SourceOptions

    func run() async throws {
        try await CredentialActions.revoke(kind: Tag.kind, id: id, source: source)
    }
}
