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
        return SHA256.hash(data: bytes).prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
