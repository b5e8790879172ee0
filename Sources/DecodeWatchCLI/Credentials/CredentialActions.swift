import ArgumentParser
import DecodeWatchCore
import DecodeWatchStore
import Foundation

/// What `keys` and `tokens` do, for either kind of credential: one implementation for both.
enum CredentialActions {
    /// The list formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    /// Makes and stores a credential, on the database or through the collector's API, then prints its secret once on
    /// standard output (so a script can capture it) and what to do with it on standard error. A missing SQLite file
    /// is created only with `--create`.
    /// - Parameter scope: what a read token may do; ignored for ingest keys.
    static func create(
        kind: CredentialKind, app: String?, name: String?, scope: TokenScope = .read, source: SourceOptions,
        createFlag: Bool
    ) async throws {
        let credential: Credential
        let secret: String
        switch try source.source() {
        case .store(let store):
            let made = CredentialSecret(kind: kind)
            credential = Credential(
                kind: kind, app: app, name: name, scope: scope, createdAt: Date(), createdBy: LocalActor.name)
            try await store.withStore(createFlag: createFlag) {
                try await $0.insertCredential(credential, secretHash: made.hash)
            }
            secret = made.value
        case .collector(let collector):
            (credential, secret) = try await collector.createCredential(kind: kind, app: app, name: name, scope: scope)
        }
        print(secret)
        let what =
            kind == .ingest
            ? "ingest key \(credential.id) for app '\(app ?? "")'"
            : "read token \(credential.id) with the '\(scope.rawValue)' scope"
        let command = kind == .ingest ? "keys" : "tokens"
        FileHandle.standardError.write(
            Data(
                """
                Created \(what). It is shown only this once: only its SHA-256 is stored.
                Revoke it with `decodewatch \(command) revoke \(credential.id)`.

                """.utf8))
    }

    /// Prints the credentials of a kind, oldest first.
    static func list(kind: CredentialKind, format: Format, source: SourceOptions) async throws {
        let credentials: [Credential]
        switch try source.source() {
        case .store(let store): credentials = try await store.withStore { try await $0.credentials(kind: kind) }
        case .collector(let collector): credentials = try await collector.credentials(kind: kind)
        }
        switch format {
        case .json:
            print(try CommandJSON.render(credentials), terminator: "")
        case .table:
            print(table(credentials, kind: kind), terminator: "")
        }
    }

    /// Revokes a credential by id; every collector sharing the store refuses it within seconds.
    static func revoke(kind: CredentialKind, id: String, source: SourceOptions) async throws {
        switch try source.source() {
        case .store(let store):
            try await store.withStore {
                try await $0.revokeCredential(id: id, kind: kind, at: Date(), by: LocalActor.name)
            }
        case .collector(let collector):
            try await collector.revokeCredential(kind: kind, id: id)
        }
        print("Revoked \(id).")
    }

    /// Refuses `--create` with a collector: it creates a database file, which a collector's API has no use for.
    static func checkCreate(_ create: Bool, source: SourceOptions) throws {
        guard create, case .collector = try source.source() else { return }
        throw ValidationError(
            "--create makes a missing SQLite file; it has no meaning with --url (or DECODEWATCH_URL): leave it out.")
    }

    /// The `list` table: a key's app and name, a token's name and scope.
    static func table(_ credentials: [Credential], kind: CredentialKind) -> String {
        guard !credentials.isEmpty else {
            return kind == .ingest
                ? "No ingest keys. Create one with `decodewatch keys create --app APP`.\n"
                : "No read tokens. Create one with `decodewatch tokens create --name NAME`.\n"
        }
        // Keys belong to an app and may have a name; tokens have a name and a scope.
        let ingest = kind == .ingest
        var rows = [
            ["ID"] + (ingest ? ["APP"] : []) + ["NAME"] + (ingest ? [] : ["SCOPE"])
                + ["CREATED", "BY", "LAST USED", "STATUS"]
        ]
        for credential in credentials {
            rows.append(
                [credential.id] + (ingest ? [credential.app ?? "-"] : []) + [credential.name ?? "-"]
                    + (ingest ? [] : [credential.scope?.rawValue ?? "-"]) + [
                        RFC3339.string(from: credential.createdAt), credential.createdBy ?? "-",
                        credential.lastUsedAt.map(RFC3339.string(from:)) ?? "never",
                        credential.revokedAt == nil
                            ? "active" : credential.revokedBy.map { "revoked by \($0)" } ?? "revoked",
                    ])
        }
        return TextTable.render(rows)
    }

    /// Checks an operator-given label: an app id or a name.
    static func check(_ value: String, option: String) throws {
        guard !value.isEmpty, value.count <= 200 else { throw ValidationError("\(option) must be 1–200 characters.") }
    }
}
