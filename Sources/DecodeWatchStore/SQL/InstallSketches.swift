import DecodeWatchCore

/// Distinct installs where a window holds install sketches: each key's sketches merged with the install
/// hashes it kept as rows, estimated (docs/api.md#installs-and-rates allows an estimate within 2 % above 1,000).
///
/// Installs are a distinct union over the buckets of a window, never a sum: an install in a folded hour and
/// in a minute still kept exactly counts once, because merging a sketch and adding a hash are both idempotent.
enum InstallSketches {
    /// One estimate per key.
    /// - Parameters:
    ///   - sketches: rows with a `sketch`.
    ///   - hashes: rows with an `install_hash`.
    ///   - key: what a row is counted under.
    /// - Throws: ``StoreError`` `unavailable` when a stored sketch cannot be read.
    static func estimates<Key: Hashable>(
        sketches: [SQLRecord], hashes: [SQLRecord], key: (SQLRecord) throws -> Key
    ) throws -> [Key: Int] {
        var merged: [Key: HyperLogLog] = [:]
        for row in sketches { merged[try key(row), default: HyperLogLog()].merge(try HyperLogLog(storedIn: row)) }
        for row in hashes {
            merged[try key(row), default: HyperLogLog()].add(hash: UInt64(bitPattern: try row.integer("install_hash")))
        }
        return merged.mapValues(\.estimate)
    }
}
