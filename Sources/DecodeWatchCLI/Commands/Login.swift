import ArgumentParser
import DecodeWatchWire
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch login --url URL [--profile NAME] [--default]`: checks a read token against a collector and stores
    /// both as a profile, which the remote commands then use without `--url` and `--token`
    /// (docs/cli.md#login-and-profiles).
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a read token against a collector and store both as a profile.",
            discussion: """
                The token is read from a prompt that does not echo at a terminal, else as one line of standard \
                input (echo "$TOKEN" | decodewatch login --url URL), never from the command line, where other \
                users see it in process lists. The first profile becomes the default one: fields, drift, check, \
                resolve, mute, unmute, alerts list and contracts list then ask its collector when no --db, --url \
                or --profile is given.
                """)

        @Option(
            help: ArgumentHelp(
                "The collector's address (http or https), e.g. https://decodewatch.example.com.", valueName: "url"))
        var url: String
        @Option(help: ArgumentHelp("The profile's name: \(EnvironmentName.rule).", valueName: "name"))
        var profile = "default"
        @Flag(help: "Make this profile the default one even when another one is.") var `default` = false
        @Option(help: .hidden) var token: String?

        func validate() throws {
            if token != nil {
                throw ValidationError(
                    "login reads the token from standard input (a prompt without echo at a terminal), never from the "
                        + "command line, where other users see it in process lists: "
                        + "echo \"$TOKEN\" | decodewatch login --url \(url)")
            }
            _ = try SourceOptions.collectorURL(url, from: "--url")
            guard ProfileConfig.isValidName(profile) else {
                throw ValidationError("--profile '\(profile)' must be \(EnvironmentName.rule).")
            }
        }

        func run() async throws {
            let base = try SourceOptions.collectorURL(url, from: "--url")
            let secret = TokenPrompt.read(prompt: "Read token for \(base.absoluteString) (dwr_…): ")
            guard !secret.isEmpty else {
                FileHandle.standardError.write(
                    Data(
                        ("Error: No token was given: type it at the prompt, or pipe it in: "
                            + "echo \"$TOKEN\" | decodewatch login --url \(base.absoluteString)\n").utf8))
                throw ExitCode.validationFailure
            }
            let identity: CollectorClient.TokenIdentity
            do { identity = try await CollectorClient(base: base, token: secret).tokenIdentity() } catch {
                throw CollectorError("\(error) No profile was stored.")
            }
            let store = ProfileStore()
            var config = try store.load()
            let replaced = config.profiles[profile] != nil
            config.profiles[profile] = .init(url: base.absoluteString, token: secret, tokenID: identity.id)
            if `default` || config.defaultEntry == nil { config.defaultProfile = profile }
            try store.save(config)
            print(
                Self.confirmation(
                    base: base, identity: identity, profile: profile, replaced: replaced, config: config,
                    path: store.file.path))
        }

        /// What `login` says once the profile is stored: who the collector says the token is, and where it went.
        static func confirmation(
            base: URL, identity: CollectorClient.TokenIdentity, profile: String, replaced: Bool, config: ProfileConfig,
            path: String
        ) -> String {
            let who =
                if let id = identity.id { " as \(identity.name ?? id)" } else {
                    ", which is open: it needs no token until one is created"
                }
            var line =
                "Logged in to \(base.absoluteString)\(who) (scope \(identity.scope)); profile '\(profile)' "
                + "\(replaced ? "replaced" : "saved") in \(path)."
            if let current = config.defaultProfile, current != profile {
                line +=
                    " The default profile stays '\(current)': pick this one with --profile \(profile) or "
                    + "DECODEWATCH_PROFILE=\(profile), or log in again with --default."
            }
            return line
        }
    }
}
