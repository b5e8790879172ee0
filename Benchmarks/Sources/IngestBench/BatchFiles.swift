import DecodeWatchZlib
import Foundation

/// Writes numbered batch files (`000000.bin`, `000001.bin`, …) as `realistic_batches.py` does: each body
/// compressed with zlib (RFC 1950, HTTP `deflate`) at level 6, chunks of 1,000 written in parallel.
enum BatchFiles {
    /// Batches per chunk; a chunk's bodies are drawn from a stream of their own, so the files do not depend on
    /// how many chunks run at once.
    static let chunkSize = 1000

    /// Writes `count` batches to `folder`, creating it if needed.
    /// - Parameters:
    ///   - count: how many batches.
    ///   - folder: where the files go.
    ///   - bodies: the JSON bodies of a chunk of batch indexes.
    /// - Returns: the summary line, "wrote N batches to DIR: mean X B deflate, Y B JSON".
    /// - Throws: when the folder or a file cannot be written.
    static func write(
        count: Int, to folder: URL, bodies: @escaping @Sendable (Range<Int>) throws -> [Data]
    ) async throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (json, deflate) = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for start in stride(from: 0, to: count, by: chunkSize) {
                group.addTask {
                    let indexes = start..<min(start + chunkSize, count)
                    var sizes = (0, 0)
                    for (index, body) in zip(indexes, try bodies(indexes)) {
                        let compressed = try Zlib.compress(body, level: 6)
                        try compressed.write(to: folder.appendingPathComponent(String(format: "%06d.bin", index)))
                        sizes.0 += body.count
                        sizes.1 += compressed.count
                    }
                    return sizes
                }
            }
            return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        let batches = Double(max(1, count))
        return String(
            format: "wrote %d batches to %@: mean %.0f B deflate, %.0f B JSON", count, folder.path,
            Double(deflate) / batches, Double(json) / batches)
    }
}
