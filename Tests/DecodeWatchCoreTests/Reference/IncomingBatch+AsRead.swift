@testable import DecodeWatchCore

extension IncomingBatch {
    /// The batch as a reader that makes every string would give it: each report's snippet made from the text, and
    /// without the reader's own index of its reports (shape numbers, snippet places), which a reference has no
    /// part in.
    func asRead(from text: UnsafeRawBufferPointer) -> IncomingBatch {
        var batch = self
        for (index, span) in snippets.enumerated() {
            guard let span, case .success(var report) = batch.reports[index] else { continue }
            report.snippet = span.string(in: text)
            batch.reports[index] = .success(report)
        }
        batch.shapes = []
        batch.shapeCount = 0
        batch.snippets = []
        return batch
    }
}
