import ArgumentParser
import DecodeWatchStore
import Foundation

/// Where a read, triage or admin command (`fields`, `drift`, `resolve`, `mute`, `unmute`, `keys`, `tokens`) works: the
/// database
/// (``StoreOptions``), or a running collector's HTTP API with `--url` and a read token (docs/cli.md#remote).
///
/// A flag beats the environment: `--db` or `--database-url` use the database even while `DECODEWATCH_URL` is
/// set; `--url` together with a database flag is refused.
struct SourceOptions: ParsableArguments {
    @OptionGroup var store: StoreOptions

    @Option(
        help: ArgumentHelp(
            "A running collector to ask instead of the database, e.g. https://decodewatch.example.com. "
                + "Default: $DECODEWATCH_URL.", valueName: "url"))
    var url: String?

    @Option(help: "The read token (dwr_…) the collector at --url wants. Default: $DECODEWATCH_TOKEN.")
    var token: String?

    /// Where the answers come from.
    enum Source {
        /// The database itself.
        case store(StoreOptions)
        /// A collector's HTTP API.
        case collector(CollectorClient)
    }

    func validate() throws { _ = try source() }

    /// The source the flags, else the environment, choose.
    /// - Throws: `ValidationError` for `--url` with a database flag, `--token` without a collector, or an
    ///   address that is not http(s).
    func source(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Source {
        let databaseFlags = store.db != nil || store.databaseURL != nil || store.databasePoolSize != nil
        if url != nil && databaseFlags {
            throw ValidationError(
                "--url and the database flags (--db, --database-url) exclude each other: ask the collector or the "
                    + "database.")
        }
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let address = url ?? (databaseFlags ? nil : variable("DECODEWATCH_URL")) else {
            if token != nil {
                throw ValidationError("--token goes with --url (or DECODEWATCH_URL): a collector's address.")
            }
            return .store(store)
        }
        guard let base = URL(string: address), let scheme = base.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            base.host != nil
        else {
            throw ValidationError(
                "\(url == nil ? "DECODEWATCH_URL" : "--url") '\(address)' must be an http(s) address such as "
                    + "https://decodewatch.example.com.")
        }
        return .collector(CollectorClient(base: base, token: token ?? variable("DECODEWATCH_TOKEN")))
    }

    /// Applies a decision to the group `text` names (a whole id or a unique start of one), in the database or
    /// through the collector.
    /// - Returns: the group's full id.
    func apply(_ action: GroupAction, to text: String) async throws -> String {
        switch try source() {
        case .store(let store):
            return try await store.withStore { store in
                let id = try await store.groupID(startingWith: text)
                try await store.apply(action, to: id, at: Date(), by: LocalActor.name)
                return id
            }
        case .collector(let collector):
            return try await collector.apply(action, to: text)
        }
    }
}

/// The flags of a command that works on the database only (`alerts`, `contracts`, `digest`):
/// `--url` and `--token` are taken only to say so, instead of ArgumentParser's "unknown option".
struct DatabaseOnlyOptions: ParsableArguments {
    @Option(help: .hidden) var url: String?
    @Option(help: .hidden) var token: String?

    func validate() throws {
        guard url == nil && token == nil else {
            throw ValidationError(
                "This command works on the database itself, not through a collector's API: run it where the "
                    + "database is reachable, with --db or --database-url (or DECODEWATCH_DB / DECODEWATCH_DATABASE_URL)."
            )
        }
    }
}
