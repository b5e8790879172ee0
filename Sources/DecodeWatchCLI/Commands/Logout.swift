import ArgumentParser
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch logout [--profile NAME]`: forgets a profile `login` stored (docs/cli.md#login-and-profiles).
    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget a stored profile: its collector and token.",
            discussion: """
                The token itself stays valid on the collector: revoke it with `decodewatch tokens revoke tok_…` where \
                the database is.
                """)

        @Option(help: ArgumentHelp("The profile to forget. Default: the default profile.", valueName: "name"))
        var profile: String?

        func run() async throws {
            let store = ProfileStore()
            var config = try store.load()
            guard let name = profile ?? config.defaultProfile else {
                throw ProfileError(
                    config.profiles.isEmpty
                        ? "No profile is stored in \(store.file.path): there is nothing to log out of."
                        : "No profile is the default one: name the one to forget with --profile ("
                            + config.profiles.keys.sorted().map { "'\($0)'" }.joined(separator: ", ") + ").")
            }
            let origin = profile == nil ? "default_profile" : "--profile"
            let removed = try config.profile(named: name, from: origin, in: store.file.path)
            config.profiles[name] = nil
            let wasDefault = config.defaultProfile == name
            if wasDefault { config.defaultProfile = nil }
            try store.save(config)
            var line = "Logged out of \(removed.url): profile '\(name)' removed from \(store.file.path)."
            if let id = removed.tokenID {
                line += " Its token still works until revoked: `decodewatch tokens revoke \(id)` where the database is."
            }
            if wasDefault && !config.profiles.isEmpty {
                line +=
                    " No profile is the default now: name one with --profile or DECODEWATCH_PROFILE, or make one the "
                    + "default with `decodewatch login --url URL --profile NAME --default`."
            }
            print(line)
        }
    }
}
