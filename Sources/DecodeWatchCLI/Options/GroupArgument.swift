import ArgumentParser
import DecodeWatchCore

/// The group a command works on (`resolve`, `mute`, `unmute`, `suggest`, `issue create`): its id, or a unique
/// start of it, as `decodewatch fields` shows it.
struct GroupArgument: ParsableArguments {
    @Argument(
        help: "The group id, or a unique start of it (6 characters or more), as `decodewatch fields` shows it.")
    var group: String

    /// Checks the id as the API checks one (``GroupIDPrefix/check(_:)``). Each command calls it first in its own
    /// `validate()`, after ArgumentParser has validated the command's other option groups, as it always has.
    /// - Throws: `ValidationError` when the text cannot name a group.
    func check() throws {
        do { try GroupIDPrefix.check(group) } catch { throw ValidationError(error.message) }
    }
}
