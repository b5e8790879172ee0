import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation

extension TestReceiver.Request {
    /// The body decoded as the SDK's ``ReportBatch``, inflated first when it was deflated.
    var batch: ReportBatch? {
        inflated.flatMap { try? JSONDecoder().decode(ReportBatch.self, from: $0) }
    }
}
