import DecodeWatchCore
import Foundation
import Synchronization

@testable import DecodeWatchStore

/// A ``BatchLog`` held in memory whose folds run a closure, for the tests of what ``BatchFolder`` keeps in memory
/// and when it folds; the logs of the stores are tested against their databases.
final class ScriptedLog: BatchLog {
    /// As SQLite's log folds.
    static let foldSize = 200
    var batchesPerFold: Int { Self.foldSize }
    private let held = Mutex<[Int64: BatchAggregate]>([:])
    private let next = Mutex<Int64>(0)
    private let folding: @Sendable ([BatchAggregate]) async throws -> Void

    /// - Parameter fold: runs for each fold with its batches; the batches leave the log when it returns.
    init(fold: @escaping @Sendable ([BatchAggregate]) async throws -> Void) {
        folding = fold
    }

    /// How many batches the log holds.
    var count: Int { held.withLock { $0.count } }

    func append(_ batches: [ReceivedBatch]) async throws -> [Int64?] {
        batches.map { batch in
            let seq = next.withLock {
                $0 += 1; return $0
            }
            held.withLock { $0[seq] = batch.aggregate }
            return seq
        }
    }

    func fold(_ batches: [DecodeWatchStore.LoggedBatch]) async throws -> Bool {
        try await folding(batches.map(\.batch))
        try await drop(batches.map(\.seq))
        return true
    }

    func drop(_ seqs: [Int64]) async throws {
        held.withLock { held in for seq in seqs { held[seq] = nil } }
    }

    func foldOrphans(pipeline: IngestPipeline, atStart: Bool) async throws -> Int { 0 }

    func newest() async throws -> Int64? { held.withLock { $0.keys.max() } }

    func holds(upTo seq: Int64) async throws -> Bool { held.withLock { $0.keys.contains { $0 <= seq } } }

    func commitReadinessWrite() async throws {}
}
