import DecodeWatchCore
import Foundation
import FuzzDriver

// Any bytes as an inflated ingest body: validation either refuses the batch with a BatchError or accepts
// it, and then every number and key it produces must hold up, and the aggregate the store writes must
// build. The one-pass reader inside validation must find exactly the syntax error that the standalone
// strict check finds, or none when it finds none. A crash, a trap or a broken property is a finding.
let validator = BatchValidator()
let redactor = Redactor()
let receivedAt = Date(timeIntervalSince1970: 1_795_000_000)

runFuzzer { bytes in
    var syntaxError: String?
    do throws(JSONSyntaxError) {
        try StrictJSON.validate(bytes)
    } catch {
        syntaxError = "The body is not valid JSON \(error)."
    }
    let batch: ValidatedBatch
    do throws(BatchError) {
        batch = try validator.validate(Data(bytes), receivedAt: receivedAt)
    } catch {
        guard !error.message.isEmpty else { fatalError("a batch was refused without a message") }
        let readerSyntaxError = error.message.hasPrefix("The body is not valid JSON ") ? error.message : nil
        guard readerSyntaxError == syntaxError else {
            fatalError("the reader says \(error), the strict check says \(syntaxError ?? "valid JSON")")
        }
        return
    }
    if let syntaxError { fatalError("a batch was accepted although \(syntaxError)") }
    guard batch.accepted.count + batch.rejected.count <= validator.limits.maxReports else {
        fatalError("more reports than the limit came through: \(batch.accepted.count) + \(batch.rejected.count)")
    }
    for report in batch.accepted {
        guard validator.normalizer.normalize(report.key.endpoint) == report.key.endpoint else {
            fatalError("an accepted endpoint is not in normal form: \(report.key.endpoint)")
        }
        guard report.report.count >= 1 else { fatalError("an accepted report counts \(report.report.count)") }
    }
    for rejection in batch.rejected where rejection.error.isEmpty {
        fatalError("report \(rejection.index) was rejected without a reason")
    }
    let aggregate = BatchAggregate(batch, redactor: redactor)
    guard aggregate.groups.count <= batch.accepted.count else {
        fatalError("\(aggregate.groups.count) groups from \(batch.accepted.count) reports")
    }
}
