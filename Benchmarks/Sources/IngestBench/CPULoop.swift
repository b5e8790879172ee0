import DecodeWatchCore
import Foundation

/// `IngestBench cpu DIR SECONDS`: the CPU limit of ingest, the first 2,000 batches of DIR inflated, validated,
/// folded and redacted on one core for SECONDS, and where that CPU goes.
///
/// Each chunk of ``chunkSize`` batches goes through the whole loop (``loopStep(_:pipeline:)``, what the collector
/// does per batch), then through each step on its own, the steps' inputs kept from the step before: inflate with zlib
/// (the collector's, the reference every step is set against), inflate with libdeflate (checked to give the same
/// bytes), validate, aggregate, redact, and freeing what the steps made. Interleaving them by chunk gives every figure
/// the same batches and the same moments of this machine's moving speed. Each is CPU time of this thread
/// (``threadCPUNanoseconds()``), read once per chunk and step.
/// - Returns: the lines to print: the whole loop's batches and reports per CPU second, then µs per batch of each.
/// - Throws: when a file cannot be read, a batch is refused, or libdeflate's bytes differ from zlib's.
func cpuLoop(folder: URL, seconds: Int) throws -> String {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().prefix(2000)
    let bodies = try files.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
    let pipeline = IngestPipeline()
    // The steps' own memory of redactions, as the pipeline keeps one (IngestPipeline's is private).
    let redactions = SampleRedactions(redactor: Redactor())
    let limits = pipeline.validator.limits
    let receivedAt = Date()
    var steps = StepTimes()
    var batches = 0
    var reports = 0
    var compared = 0
    let deadline = ContinuousClock.now + .seconds(seconds)
    var start = 0
    while ContinuousClock.now < deadline {
        let chunk = bodies[start..<min(start + chunkSize, bodies.count)]
        start = chunk.endIndex == bodies.count ? 0 : chunk.endIndex
        reports += try steps.time(.loop) { try chunk.reduce(0) { $0 + (try loopStep($1, pipeline: pipeline)) } }
        batches += chunk.count
        var inflated = try steps.time(.zlib) {
            try chunk.map { try pipeline.inflate(BatchSource(body: $0, encoding: .deflate)) }
        }
        var other = try steps.time(.libdeflate) { try chunk.map { try LibdeflateInflate.inflate($0, limits: limits) } }
        if compared < bodies.count {
            guard other == inflated else { throw CPULoopError.inflatedBytesDiffer }
            compared += chunk.count
        }
        var validated = try steps.time(.validate) {
            try inflated.map { try pipeline.validator.validate($0, receivedAt: receivedAt) }
        }
        var aggregates = steps.time(.aggregate) { validated.map { BatchAggregate($0, redactions: redactions) } }
        // Each group's sample as the fold takes it (BatchAggregate's Sample(report), which is not public).
        let samples = validated.flatMap { batch in
            batch.samples.map { index in
                let report = batch.accepted[index].report
                return Sample(
                    snippet: report.snippet, message: report.message, type: report.type, keyDecoding: report.keyDecoding
                )
            }
        }
        var redacted = steps.time(.redact) { samples.map { redactions.redacted($0) } }
        redacted += steps.time(.redactUnremembered) { samples.map { redactions.redactor.redacted($0) } }
        steps.count(chunk.count, of: [.zlib, .libdeflate, .validate, .aggregate, .redact, .redactUnremembered])
        // What the pipeline makes and drops per batch; libdeflate's bodies and the redacted samples are not.
        steps.time(.free) {
            inflated = []
            validated = []
            aggregates = []
        }
        steps.count(chunk.count, of: [.loop, .free])
        other = []
        redacted = []
    }
    let cpuSeconds = steps.seconds(.loop)
    var lines = [
        String(
            format: "cpu: %d batches, %d reports in %.1f s CPU = %.0f batches/s, %.0f reports/s (one core)",
            batches, reports, cpuSeconds, Double(batches) / cpuSeconds, Double(reports) / cpuSeconds),
        "per batch, CPU µs and times the zlib inflate, \(bodies.count) batches in chunks of \(chunkSize), interleaved"
            + " (libdeflate's bytes equal zlib's for all \(compared)):",
    ]
    let reference = steps.microsecondsPerBatch(.zlib)
    /// One line: what, µs per batch, and that against the reference.
    func line(_ label: String, _ microseconds: Double) -> String {
        label.padding(toLength: 48, withPad: " ", startingAt: 0)
            + String(format: "%8.1f µs %6.2fx", microseconds, microseconds / reference)
    }
    lines += Step.allCases.map { line($0.label, steps.microsecondsPerBatch($0)) }
    lines.append(
        line(
            "  aggregate less redact: the fold alone",
            steps.microsecondsPerBatch(.aggregate) - steps.microsecondsPerBatch(.redact)))
    lines.append(
        line(
            "  zlib + validate + aggregate + free",
            [Step.zlib, .validate, .aggregate, .free].reduce(0) { $0 + steps.microsecondsPerBatch($1) }))
    return lines.joined(separator: "\n")
}

/// Batches per chunk: few enough that a chunk's inflated bodies and validated batches stay small, many enough that
/// reading the clock is nothing next to the work it times.
private let chunkSize = 100

/// Why the loop stopped.
enum CPULoopError: Error {
    /// libdeflate inflated a batch to other bytes than zlib did.
    case inflatedBytesDiffer
}

/// What the loop times.
private enum Step: Int, CaseIterable {
    case loop, zlib, libdeflate, validate, aggregate, redact, redactUnremembered, free

    /// Its line in the output.
    var label: String {
        switch self {
        case .loop: "  whole loop (loopStep)"
        case .zlib: "  inflate, zlib (the collector's; reference)"
        case .libdeflate: "  inflate, libdeflate"
        case .validate: "  validate (decode + check)"
        case .aggregate: "  aggregate (fold + redact, remembered)"
        case .redact: "  redact, remembered (as the pipeline does)"
        case .redactUnremembered: "  redact, each sample as if first seen"
        case .free: "  free (bodies, batches, aggregates)"
        }
    }
}

/// CPU nanoseconds and batches per step.
private struct StepTimes {
    private var nanoseconds = [UInt64](repeating: 0, count: Step.allCases.count)
    private var batches = [Int](repeating: 0, count: Step.allCases.count)

    /// Runs `work`, adding the CPU time it took to `step`.
    mutating func time<Result>(_ step: Step, _ work: () throws -> Result) rethrows -> Result {
        let start = threadCPUNanoseconds()
        let result = try work()
        nanoseconds[step.rawValue] += threadCPUNanoseconds() - start
        return result
    }

    /// Adds `count` batches to each of `steps`.
    mutating func count(_ count: Int, of steps: [Step]) {
        for step in steps { batches[step.rawValue] += count }
    }

    /// The CPU seconds `step` took in all.
    func seconds(_ step: Step) -> Double { Double(nanoseconds[step.rawValue]) / 1e9 }

    /// The CPU microseconds `step` took per batch.
    func microsecondsPerBatch(_ step: Step) -> Double {
        Double(nanoseconds[step.rawValue]) / 1e3 / Double(max(1, batches[step.rawValue]))
    }
}

/// One batch through the collector's ``IngestPipeline``: inflated within the limits, validated, folded and each
/// group's sample redacted; returns its accepted reports. Not inlined, so that `count-instructions.sh` counts
/// exactly the calls of this function.
@inline(never)
func loopStep(_ body: Data, pipeline: IngestPipeline) throws -> Int {
    let source = BatchSource(body: body, encoding: .deflate)
    return pipeline.aggregate(try pipeline.validate(source, receivedAt: Date())).acceptedReports
}
