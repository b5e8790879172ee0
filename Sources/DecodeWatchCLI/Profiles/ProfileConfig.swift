import DecodeWatchCore
import DecodeWatchWire
import Foundation

/// The collectors `decodewatch login` stored, and which one the remote commands use by default
/// (docs/cli.md#login-and-profiles).
///
/// Stored as JSON by ``ProfileStore``:
/// `{"default_profile": "default", "profiles": {"default": {"url": "https://…", "token": "dwr_…", "token_id": "tok_…"}}}`.
struct ProfileConfig: Codable, Equatable {
    /// One collector and the read token to ask it with.
    struct Profile: Codable, Equatable {
        /// The collector's address, as given to `login --url`.
        var url: String
        /// The read token (`dwr_…`).
        var token: String
        /// The token's id (`tok_…`) as the collector named it, so `logout` can say how to revoke it; `nil` on an open
        /// collector.
        var tokenID: String?

        enum CodingKeys: String, CodingKey {
            case url, token
            case tokenID = "token_id"
        }
    }

    /// The profile used when no flag, variable or `--profile` chooses; `nil` when none is.
    var defaultProfile: String?
    /// Every profile by name.
    var profiles: [String: Profile] = [:]

    enum CodingKeys: String, CodingKey {
        case defaultProfile = "default_profile"
        case profiles
    }

    /// The profile used when none is named: the default one, if it is still stored.
    var defaultEntry: (name: String, profile: Profile)? {
        defaultProfile.flatMap { name in profiles[name].map { (name, $0) } }
    }

    /// The profile `name` names.
    /// - Parameters:
    ///   - name: the profile asked for.
    ///   - origin: where the name came from (`--profile`, `DECODEWATCH_PROFILE`), for the message.
    ///   - path: the config file, for the message.
    /// - Throws: ``ProfileError`` naming the known profiles, nearest first, when there is no such profile.
    func profile(named name: String, from origin: String, in path: String) throws -> Profile {
        if let profile = profiles[name] { return profile }
        let known = NearestNames.ordered(profiles.keys, by: name).map { "'\($0)'" }
        let stored =
            known.isEmpty
            ? "no profile is stored in \(path) yet; `decodewatch login --url URL --profile \(name)` stores one"
            : "the profiles in \(path) are \(known.joined(separator: ", "))"
        throw ProfileError("\(origin) names the profile '\(name)', which does not exist: \(stored).")
    }

    /// Whether `name` can name a profile: the rule of environment names (``EnvironmentName/rule``), which keeps a
    /// name typeable in a shell and printable in a table as it is.
    static func isValidName(_ name: String) -> Bool { EnvironmentName.isValid(name) }
}

/// A profile that does not exist, or a config file that cannot be read or written; one sentence.
struct ProfileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
