import DecodeWatchCore
import DecodeWatchZlib
import Foundation

/// `IngestBench cpu DIR SECONDS`: the CPU limit of ingest, the first 2,000 batches of DIR inflated, validated,
/// folded and redacted in a loop on one core for SECONDS.
/// - Returns: the line to print, with batches and reports per second.
/// - Throws: when a file cannot be read or a batch is refused.
func cpuLoop(folder: URL, seconds: Int) throws -> String {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().prefix(2000)
    let bodies = try files.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
    let validator = BatchValidator()
    let redactor = Redactor()
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(seconds)
    var batches = 0
    var reports = 0
    let start = clock.now
    while clock.now < deadline {
        reports += try loopStep(bodies[batches % bodies.count], validator: validator, redactor: redactor)
        batches += 1
    }
    let elapsed =
        Double((clock.now - start).components.seconds) + Double((clock.now - start).components.attoseconds) / 1e18
    return String(
        format: "cpu: %d batches, %d reports in %.1f s = %.0f batches/s, %.0f reports/s (one core)",
        batches, reports, elapsed, Double(batches) / elapsed, Double(reports) / elapsed)
}

/// One batch through the loop: inflated, validated, folded and each group's sample redacted, as a commit of this
/// batch alone keeps them; returns its accepted reports. Not inlined, so that `count-instructions.sh` counts
/// exactly the calls of this function.
@inline(never)
func loopStep(_ body: Data, validator: BatchValidator, redactor: Redactor) throws -> Int {
    let batch = try validator.validate(try Zlib.decompress(body), receivedAt: Date())
    let aggregate = BatchAggregate(batch, redactor: redactor)
    for delta in aggregate.groups { _ = redactor.redacted(delta.unredactedSample) }
    return aggregate.acceptedReports
}
