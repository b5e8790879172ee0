import DecodeWatchCore
import Foundation

/// `IngestBench cpu DIR SECONDS`: the CPU limit of ingest, the first 2,000 batches of DIR inflated, validated,
/// folded and redacted in a loop on one core for SECONDS.
/// - Returns: the line to print, with batches and reports per second.
/// - Throws: when a file cannot be read or a batch is refused.
func cpuLoop(folder: URL, seconds: Int) throws -> String {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().prefix(2000)
    let bodies = try files.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
    let pipeline = IngestPipeline()
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(seconds)
    var batches = 0
    var reports = 0
    let start = clock.now
    while clock.now < deadline {
        reports += try loopStep(bodies[batches % bodies.count], pipeline: pipeline)
        batches += 1
    }
    let elapsed =
        Double((clock.now - start).components.seconds) + Double((clock.now - start).components.attoseconds) / 1e18
    return String(
        format: "cpu: %d batches, %d reports in %.1f s = %.0f batches/s, %.0f reports/s (one core)",
        batches, reports, elapsed, Double(batches) / elapsed, Double(reports) / elapsed)
}

/// One batch through the collector's ``IngestPipeline``: inflated within the limits, validated, folded and each
/// group's sample redacted; returns its accepted reports. Not inlined, so that `count-instructions.sh` counts
/// exactly the calls of this function.
@inline(never)
func loopStep(_ body: Data, pipeline: IngestPipeline) throws -> Int {
    let source = BatchSource(body: body, encoding: .deflate)
    return pipeline.aggregate(try pipeline.validate(source, receivedAt: Date()), source: nil).acceptedReports
}
