import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchStoreSQLite
import DecodeWatchZlib
import Foundation

// Usage: CommitBench DIR COMMITS [BATCHES]
//   The writer alone: COMMITS commits of BATCHES (default 15) folded batches each (written by `IngestBench
//   generate`) into a new SQLite file, one after another; prints the CPU time and wall time per commit.
//
// Commits are the collector's one serial step: this times them without the HTTP server, the decoding or the other
// requests that share the cores, so that two builds compare on what a commit costs.

let arguments = CommandLine.arguments
guard (3...4).contains(arguments.count), let number = Int(arguments[2]) else {
    print("usage: CommitBench DIR COMMITS [BATCHES]")
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1])
let perCommit = arguments.count == 4 ? Int(arguments[3]) ?? 15 : 15
let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
guard files.count >= number * perCommit else {
    print("\(number) commits of \(perCommit) batches need \(number * perCommit) batches in \(folder.path)")
    exit(2)
}
let validator = BatchValidator()
let redactor = Redactor()
let aggregates = try files.prefix(number * perCommit).map { file in
    let body = try Zlib.decompress(try Data(contentsOf: folder.appendingPathComponent(file)))
    return BatchAggregate(try validator.validate(body, receivedAt: Date()), redactor: redactor)
}
let database = FileManager.default.temporaryDirectory.appendingPathComponent("commitbench-\(getpid()).sqlite")
let store = try SQLiteReportStore(path: database.path)
let clock = ContinuousClock()
let start = (time: clock.now, cpu: processCPUSeconds())
for commit in 0..<number {
    _ = try await store.ingest(Array(aggregates[commit * perCommit..<(commit + 1) * perCommit]))
}
let elapsed = clock.now - start.time
let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print(
    String(
        format: "%d commits of %d batches, %.3f ms CPU and %.3f ms wall per commit", number, perCommit,
        (processCPUSeconds() - start.cpu) * 1000 / Double(number), wall * 1000 / Double(number)))
for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }

/// User and system CPU time of this process so far, in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
