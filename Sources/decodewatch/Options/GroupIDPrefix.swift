import ArgumentParser
import DecodeWatchStore
import Foundation

/// Group ids as people type them: any unique start of at least ``minimumLength`` characters of the 32 hex
/// characters, as tables show the first ``shownLength`` (`resolve`, `mute`, `unmute`).
///
/// The HTTP API keeps taking full ids; a prefix is a convenience of the terminal only.
enum GroupIDPrefix {
    /// The shortest prefix taken: shorter ones would match several groups too often to be useful.
    static let minimumLength = 6
    /// How much of an id tables show: unique in practice, and short enough to type.
    static let shownLength = 12
    /// How many matches an ambiguous prefix lists.
    static let listedMatches = 10

    /// The start of an id as tables show it.
    static func shown(_ id: String) -> String { String(id.prefix(shownLength)) }

    /// Checks the form of a typed id, before any database is opened.
    /// - Throws: `ValidationError` for a prefix shorter than ``minimumLength`` or not hex.
    static func check(_ text: String) throws {
        guard text.count >= minimumLength else {
            throw ValidationError(
                "The group id '\(text)' is too short: give at least \(minimumLength) of its characters, "
                    + "as `decodewatch fields` shows them.")
        }
        guard text.allSatisfy(\.isHexDigit) else {
            throw ValidationError("The group id '\(text)' is not hexadecimal; copy it from `decodewatch fields`.")
        }
    }

    /// Applies a decision to the one group whose id starts with `text`.
    /// - Returns: the group's full id.
    /// - Throws: ``GroupIDPrefixError`` when no group or several groups match; ``MissingDatabaseError``.
    static func apply(_ action: GroupAction, to text: String, store: StoreOptions) async throws -> String {
        try await store.withStore { store in
            let id = try await resolve(text, in: store)
            try await store.apply(action, to: id, at: Date())
            return id
        }
    }

    /// The full id of the one group whose id starts with `text`.
    static func resolve(_ text: String, in store: any GroupActionStore) async throws -> String {
        let prefix = text.lowercased()
        let matches = try await store.groups(withIDPrefix: prefix, limit: listedMatches + 1)
        guard matches.count == 1, let match = matches.first else {
            throw GroupIDPrefixError(prefix: prefix, matches: matches, listed: listedMatches)
        }
        return match.id
    }
}

/// A typed group id that names no group, or several.
struct GroupIDPrefixError: Error, CustomStringConvertible {
    /// The id as typed, lowercased.
    let prefix: String
    /// The groups it matches, one more than listed when there are more.
    let matches: [StoredGroup]
    /// How many matches are listed.
    let listed: Int

    var description: String {
        guard !matches.isEmpty else {
            return "No group has the id '\(prefix)' or an id starting with it; list groups with `decodewatch fields`."
        }
        let more = matches.count > listed ? " (the first \(listed) shown)" : ""
        let rows = TextTable.lines(matches.prefix(listed).map { [$0.id, $0.endpoint, $0.path] })
        return "'\(prefix)' matches several groups\(more); give more of the id:\n"
            + rows.map { "  " + $0 }.joined(separator: "\n")
    }
}
