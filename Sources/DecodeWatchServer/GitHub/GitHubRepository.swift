/// A GitHub repository named as `OWNER/REPO`, where issues are opened (docs/cli.md#issue).
public struct GitHubRepository: Sendable, Hashable, CustomStringConvertible {
    /// The user or organization that owns it.
    public let owner: String
    /// The repository's name.
    public let name: String

    /// Reads `OWNER/REPO` as GitHub spells names: letters, digits, `-`, `_` and `.`.
    /// - Parameter text: what was typed, e.g. `octo/shop-api`.
    /// - Returns: `nil` when it is not two such names joined by one `/`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        guard parts.count == 2,
            parts.allSatisfy({
                !$0.isEmpty && $0.count <= 100 && $0.allSatisfy(allowed.contains) && $0 != "." && $0 != ".."
            })
        else { return nil }
        owner = String(parts[0])
        name = String(parts[1])
    }

    /// `OWNER/REPO`.
    public var description: String { "\(owner)/\(name)" }
}
