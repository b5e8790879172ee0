import Crypto
import Foundation

/// A newly made secret: shown to the operator once, stored only as ``hash``.
public struct CredentialSecret: Sendable {
    /// The secret, e.g. `dwk_` followed by 43 base64url characters (32 random bytes).
    public let value: String
    /// The lowercase hex SHA-256 of ``value``: what storage keeps and looks up.
    public var hash: String { Self.hash(value) }

    /// Makes a new secret of a kind from the system's cryptographically secure generator.
    public init(kind: CredentialKind) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        value = kind.secretPrefix + Self.base64URL(bytes)
    }

    /// A new public id for a credential of this kind: its prefix and 16 random hex digits.
    public static func makeID(kind: CredentialKind) -> String {
        var generator = SystemRandomNumberGenerator()
        let value = UInt64.random(in: .min ... .max, using: &generator)
        let hex = String(value, radix: 16)
        return kind.idPrefix + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The SHA-256 of a secret as lowercase hex, for storing and looking up.
    public static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
