import DecodeWatchCore
import DecodeWatchZlib
import Foundation

// Usage:
//   IngestBench generate DIR COUNT [INSTALLS]
//                                    writes COUNT deflate batches of 100 reports (unique batch ids) to DIR, sent by
//                                    INSTALLS installs in turn (500 by default)
//   IngestBench cpu DIR SECONDS      the CPU limit: inflate + validate + fold + redact the batches in a loop, one core

let arguments = CommandLine.arguments
guard (4...5).contains(arguments.count), let number = Int(arguments[3]) else {
    print("usage: IngestBench generate DIR COUNT [INSTALLS] | IngestBench cpu DIR SECONDS")
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[2])

switch arguments[1] {
case "generate":
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let endpoints = ["GET /v2/posts?page=2", "GET /v2/users/42/posts", "GET /repos/octo/shop/issues", "GET /v2/feed"]
    let paths: [[PathElement]] = [
        [.key("results"), .index(1), .key("title")], [.index(4), .key("author_association")],
        [.key("users"), .key("8231"), .key("e-mail")], [.key("items"), .index(0), .key("price"), .key("amount")],
    ]
    let kinds: [ReportKind] = [.keyNotFound, .typeMismatch, .unknownValue, .valueNotFound]
    let installs = arguments.count == 5 ? max(1, Int(arguments[4]) ?? 500) : 500
    let now = Date()
    let encoder = JSONEncoder()
    for index in 0..<number {
        let reports = (0..<100).map { r in
            Report(
                occurredAt: now.addingTimeInterval(-Double(r)), endpoint: endpoints[(index + r) % 4], type: "Post",
                path: paths[r % 4], kind: kinds[(r / 4) % 4], expected: "String",
                message: "No value associated with key title (\"title\").", snippet: #"{"id":"pos_\#(r)","title":null}"#
            )
        }
        let batch = ReportBatch(
            batchID: UUID().uuidString, sentAt: now, app: AppInfo(id: "com.example.shop", version: "5.2.\(index % 3)"),
            installID: "install-\(index % installs)", decodes: [DecodeCount(endpoint: "GET /v2/posts", count: 120)],
            reports: reports)
        try Zlib.compress(encoder.encode(batch)).write(
            to: folder.appendingPathComponent(String(format: "%06d.bin", index)))
    }
    print("wrote \(number) batches to \(folder.path)")
case "cpu":
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().prefix(2000)
    let bodies = try files.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
    let validator = BatchValidator()
    let redactor = Redactor()
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(number)
    var batches = 0
    var reports = 0
    let start = clock.now
    while clock.now < deadline {
        reports += try loopStep(bodies[batches % bodies.count], validator: validator, redactor: redactor)
        batches += 1
    }
    let seconds =
        Double((clock.now - start).components.seconds) + Double((clock.now - start).components.attoseconds) / 1e18
    print(
        String(
            format: "cpu: %d batches, %d reports in %.1f s = %.0f batches/s, %.0f reports/s (one core)",
            batches, reports, seconds, Double(batches) / seconds, Double(reports) / seconds))
default:
    print("unknown mode \(arguments[1])")
    exit(2)
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
