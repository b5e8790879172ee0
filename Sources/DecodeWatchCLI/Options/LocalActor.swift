import Foundation

/// Who a command run on the database acts as (docs/api.md#group-actions): `local:<user>`, the operating-system user
/// that runs it, so that a decision taken on the database is told apart from one taken with a token.
enum LocalActor {
    /// `local:` and the user's login name (`$USER`, else the system's).
    static var name: String {
        let user = ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? NSUserName()
        return "local:" + (user.isEmpty ? "unknown" : user)
    }
}
