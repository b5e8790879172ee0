import ArgumentParser
import DecodeWatchStore
import Foundation

/// Where a read, triage or admin command (`fields`, `drift`, `resolve`, `mute`, `unmute`, `keys`, `tokens`) works: the
/// database (``StoreOptions``), a running collector's HTTP API with `--url` and a read token (docs/cli.md#remote), or
/// the collector of a profile `decodewatch login` stored (docs/cli.md#login-and-profiles).
///
/// The first that applies wins: the flags (`--url` or a database flag; `--profile`), then the variables
/// (`DECODEWATCH_URL`, then `DECODEWATCH_PROFILE`, then `DECODEWATCH_DB` or `DECODEWATCH_DATABASE_URL`), then the
/// default profile, then `./decodewatch.sqlite`. A flag beats the environment, so `--db` reads the database even while
/// a default profile or `DECODEWATCH_URL` exists; `--url`, `--profile` and the database flags exclude each other.
struct SourceOptions: ParsableArguments {
    @OptionGroup var store: StoreOptions

    @Option(
        help: ArgumentHelp(
            "A running collector to ask instead of the database, e.g. https://decodewatch.example.com. "
                + "Default: $DECODEWATCH_URL.", valueName: "url"))
    var url: String?

    @Option(help: "The read token (dwr_…) the collector at --url wants. Default: $DECODEWATCH_TOKEN.")
    var token: String?

    @Option(
        help: ArgumentHelp(
            "The collector of this profile, stored by `decodewatch login`. Default: $DECODEWATCH_PROFILE, else the "
                + "default profile, when no database or collector is chosen otherwise.", valueName: "name"))
    var profile: String?

    /// Where the answers come from.
    enum Source {
        /// The database itself.
        case store(StoreOptions)
        /// A collector's HTTP API.
        case collector(CollectorClient)
    }

    /// What the flags and the environment choose, before any profile is read.
    private enum Choice {
        /// The database.
        case store
        /// A collector at an address given by `--url` or `DECODEWATCH_URL`.
        case collector(CollectorClient)
        /// The profile named by `origin` (`--profile` or `DECODEWATCH_PROFILE`).
        case profile(String, origin: String)
        /// The default profile when one is stored, else the database.
        case defaultProfile
    }

    func validate() throws { _ = try choice(environment: ProcessInfo.processInfo.environment) }

    /// The source the flags, else the environment, else the stored profiles choose. When a profile chooses, says
    /// which collector on standard error, so that nobody mistakes its answers for the local database's.
    /// - Throws: `ValidationError` for conflicting choices, `--token` without `--url` or `DECODEWATCH_URL`, or an
    ///   address that is not http(s); ``ProfileError`` for a named profile that does not exist, a profiles file
    ///   that cannot be read, or a profile whose address is not http(s).
    func source(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Source {
        let profiles = ProfileStore(environment: environment)
        let name: String
        let profile: ProfileConfig.Profile
        switch try choice(environment: environment) {
        case .store: return .store(store)
        case .collector(let client): return .collector(client)
        case .profile(let named, let origin):
            name = named
            profile = try profiles.load().profile(named: named, from: origin, in: profiles.file.path)
        case .defaultProfile:
            guard let entry = try profiles.load().defaultEntry else { return .store(store) }
            name = entry.name
            profile = entry.profile
        }
        guard let base = try? Self.collectorURL(profile.url, from: "url") else {
            throw ProfileError(
                "The profile '\(name)' in \(profiles.file.path) holds '\(profile.url)', not an http(s) address: "
                    + "log in again with `decodewatch login --url URL --profile \(name)`.")
        }
        FileHandle.standardError.write(Data("Using collector \(base.absoluteString) (profile '\(name)').\n".utf8))
        return .collector(CollectorClient(base: base, token: profile.token))
    }

    /// What the flags and the environment choose, without reading the profiles: a conflict is a usage error, found
    /// by `validate()` before anything runs.
    private func choice(environment: [String: String]) throws -> Choice {
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let databaseFlags = store.db != nil || store.databaseURL != nil || store.databasePoolSize != nil
        if url != nil && databaseFlags {
            throw ValidationError(
                "--url and the database flags (--db, --database-url) exclude each other: ask the collector or the "
                    + "database.")
        }
        if profile != nil && (url != nil || databaseFlags) {
            throw ValidationError(
                "--profile and \(url != nil ? "--url" : "the database flags (--db, --database-url)") exclude each "
                    + "other: a profile names a collector and its token.")
        }
        let address = url ?? (databaseFlags || profile != nil ? nil : variable("DECODEWATCH_URL"))
        if let address {
            let base = try Self.collectorURL(address, from: url == nil ? "DECODEWATCH_URL" : "--url")
            return .collector(CollectorClient(base: base, token: token ?? variable("DECODEWATCH_TOKEN")))
        }
        if token != nil {
            throw ValidationError(
                "--token goes with --url (or DECODEWATCH_URL): a collector's address. A profile (--profile, "
                    + "DECODEWATCH_PROFILE, the default one) brings its own token.")
        }
        if let profile { return .profile(profile, origin: "--profile") }
        if databaseFlags { return .store }
        if let profile = variable("DECODEWATCH_PROFILE") { return .profile(profile, origin: "DECODEWATCH_PROFILE") }
        if variable("DECODEWATCH_DB") != nil || variable("DECODEWATCH_DATABASE_URL") != nil { return .store }
        return .defaultProfile
    }

    /// A collector's address, checked.
    /// - Parameters:
    ///   - address: the address as given.
    ///   - origin: where it was given (`--url`, `DECODEWATCH_URL`, a profile), for the message.
    /// - Throws: `ValidationError` when it is not an http(s) address with a host.
    static func collectorURL(_ address: String, from origin: String) throws -> URL {
        guard let base = URL(string: address), let scheme = base.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            base.host != nil
        else {
            throw ValidationError(
                "\(origin) '\(address)' must be an http(s) address such as https://decodewatch.example.com.")
        }
        return base
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
/// `--url`, `--token` and `--profile` are taken only to say so, instead of ArgumentParser's "unknown option".
struct DatabaseOnlyOptions: ParsableArguments {
    @Option(help: .hidden) var url: String?
    @Option(help: .hidden) var token: String?
    @Option(help: .hidden) var profile: String?

    func validate() throws {
        guard url == nil && token == nil && profile == nil else {
            throw ValidationError(
                "This command works on the database itself, not through a collector's API: run it where the "
                    + "database is reachable, with --db or --database-url (or DECODEWATCH_DB / DECODEWATCH_DATABASE_URL)."
            )
        }
    }
}
