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

    /// Makes and stores a credential, then prints its secret once on standard output (so a script can
    /// capture it) and what to do with it on standard error. A missing SQLite file is created only with `--create`.
    /// - Parameter scope: what a read token may do; ignored for ingest keys.
    static func create(
        kind: CredentialKind, app: String?, name: String?, scope: TokenScope = .read, store: StoreOptions,
        createFlag: Bool
    ) async throws {
        let secret = CredentialSecret(kind: kind)
        let credential = Credential(kind: kind, app: app, name: name, scope: scope, createdAt: Date())
        try await store.withStore(createFlag: createFlag) {
            try await $0.insertCredential(credential, secretHash: secret.hash)
        }
        print(secret.value)
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
    static func list(kind: CredentialKind, format: Format, store: StoreOptions) async throws {
        let credentials = try await store.withStore { try await $0.credentials(kind: kind) }
        switch format {
        case .json:
            print(try CommandJSON.render(credentials), terminator: "")
        case .table:
            print(table(credentials, kind: kind), terminator: "")
        }
    }

    /// Revokes a credential by id; every collector sharing the store refuses it within seconds.
    static func revoke(kind: CredentialKind, id: String, store: StoreOptions) async throws {
        try await store.withStore { try await $0.revokeCredential(id: id, kind: kind, at: Date()) }
        print("Revoked \(id).")
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
                + ["CREATED", "LAST USED", "STATUS"]
        ]
        for credential in credentials {
            rows.append(
                [credential.id] + (ingest ? [credential.app ?? "-"] : []) + [credential.name ?? "-"]
                    + (ingest ? [] : [credential.scope?.rawValue ?? "-"]) + [
                        RFC3339.string(from: credential.createdAt),
                        credential.lastUsedAt.map(RFC3339.string(from:)) ?? "never",
                        credential.revokedAt == nil ? "active" : "revoked",
                    ])
        }
        return TextTable.render(rows)
    }

    /// Checks an operator-given label: an app id or a name.
    static func check(_ value: String, option: String) throws {
        guard !value.isEmpty, value.count <= 200 else { throw ValidationError("\(option) must be 1–200 characters.") }
    }
}
