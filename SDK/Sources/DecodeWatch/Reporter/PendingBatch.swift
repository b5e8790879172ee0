@_spi(WireInternals) import DecodeWatchWire
import DecodeWatchZlib
import Foundation

/// A batch ready to spool and send: its id and its compressed JSON body.
struct PendingBatch: Sendable {
    let batchID: String
    let reportCount: Int
    let body: Data

    /// Encodes and compresses a batch (`Content-Encoding: deflate`, the zlib format of RFC 1950).
    init(_ batch: ReportBatch) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.batchID = batch.batchID
        self.reportCount = batch.reports.count
        self.body = try Zlib.compress(try encoder.encode(batch), format: .zlib)
    }
}
