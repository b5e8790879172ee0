import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchStoreSQLite
import Foundation
import FuzzDriver
import Metrics

// Any bytes as an inflated ingest body, through validation into a real SQLite store acknowledging from its log, as
// the collector runs by default: what the answer would acknowledge is exactly what the store then counts. A batch
// id not seen before is stored, never taken for a duplicate; once stored, the counts of its groups grew by exactly
// the counts of its accepted reports; a batch id seen before changes nothing. A violation is a finding.
let pipeline = IngestPipeline()
let receivedAt = Date(timeIntervalSince1970: 1_795_000_000)
// Every time a report can carry (RFC 3339 starts at year 0) up to the receive time, where later ones are clamped.
let since = Date(timeIntervalSince1970: -62_167_219_200)
let until = receivedAt.addingTimeInterval(7200)

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-ingest-\(UUID().uuidString)")
try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let store = try! SQLiteReportStore(path: folder.appendingPathComponent("fuzz.sqlite").path)
let sink = try! store.loggedSink(pipeline: pipeline, metrics: NOOPMetricsHandler.instance)
/// The batches stored so far, by the bytes of their app and id (how the store tells them apart).
nonisolated(unsafe) var seen = Set<[UInt8]>()

/// Runs `work` to its end from libFuzzer's synchronous callback.
func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var outcome: Result<T, any Error>?
    Task {
        do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
        done.signal()
    }
    done.wait()
    switch outcome! {
    case .success(let value): return value
    case .failure(let error): fatalError("the store failed on a valid batch: \(error)")
    }
}

/// The counts of some groups, added up, once the batches acknowledged so far are folded (as a request reads them).
func total(_ groups: [String]) -> Int {
    wait {
        try await sink.settle()
        return try await store.fields(ofGroups: groups, since: since, until: until).map(\.count).reduce(0, +)
    }
}

runFuzzer { bytes in
    let body = Data(bytes)
    let source = BatchSource(body: body, encoding: .identity)
    guard let batch = try? pipeline.validate(source, receivedAt: receivedAt) else { return }
    let aggregate = pipeline.aggregate(batch)
    let groups = Array(Set(batch.groupKeys.map(\.id)))
    let added = batch.accepted.map(\.report.count).reduce(0, +)
    let before = groups.isEmpty ? 0 : total(groups)
    let received = ReceivedBatch(aggregate, source: source)
    let outcome = wait { [received] in try await sink.commit([received])[0] }
    let identity = Array(batch.app.id.utf8) + [0] + Array(batch.batchID.utf8)
    let isNew = seen.insert(identity).inserted
    guard outcome == (isNew ? .stored : .duplicate) else {
        fatalError(
            "batch '\(batch.batchID)' of app '\(batch.app.id)' was \(outcome), expected \(isNew ? "stored" : "a duplicate")"
        )
    }
    // Counts saturate far above anything real (StoredCount.max): exactness is checked below that.
    guard !groups.isEmpty, before + added < 1 << 40 else { return }
    let after = total(groups)
    let grown = after - before
    guard grown == (isNew ? added : 0) else {
        fatalError("the store counted \(grown) for a batch whose accepted reports count \(isNew ? added : 0)")
    }
}
