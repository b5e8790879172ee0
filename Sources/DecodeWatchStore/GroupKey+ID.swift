import Crypto
import DecodeWatchCore
import Foundation

extension GroupKey {
    /// The stable id of this key: the first 128 bits of SHA-256 over the four parts, each followed by
    /// a NUL byte, as 32 lowercase hex digits.
    ///
    /// The same key gives the same id in every process, release and storage back end, so ids can be
    /// bookmarked and scripted. A cryptographic hash makes crafting two keys with one id infeasible,
    /// and the app is part of the key, so one app's batches can never be counted in another app's group.
    public var id: String {
        var bytes = Data()
        for part in [app, endpoint, path, kind.rawValue] {
            bytes.append(contentsOf: part.utf8)
            bytes.append(0)
        }
        let digits = Self.hexDigits
        return String(unsafeUninitializedCapacity: 32) { text in
            for (offset, byte) in SHA256.hash(data: bytes).prefix(16).enumerated() {
                text[2 * offset] = digits[Int(byte >> 4)]
                text[2 * offset + 1] = digits[Int(byte & 0x0F)]
            }
            return 32
        }
    }

    /// The lowercase hex digits, as bytes, looked up once rather than per id.
    private static let hexDigits = Array("0123456789abcdef".utf8)
}
