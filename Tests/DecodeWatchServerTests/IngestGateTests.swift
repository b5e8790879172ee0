import Foundation
import Testing

@testable import DecodeWatchServer

@Suite("Ingest admission")
struct IngestGateTests {
    @Test("rate-limit buckets of apps idle for a minute are evicted, so made-up app ids cannot pile up")
    func idleBucketsEvicted() {
        let gate = IngestGate(maxConcurrent: 1, batchesPerMinute: 10)
        let start = Date()
        for index in 0..<5000 {
            _ = gate.admit(app: "app-\(index)", at: start)
        }
        // Apps seen in the last minute keep their state: it still decides their answers.
        #expect(gate.trackedApps == 5000)
        // A minute later every bucket is full again: a new app sweeps them all.
        _ = gate.admit(app: "late", at: start.addingTimeInterval(61))
        #expect(gate.trackedApps == 1)
    }

    @Test("an evicted app gets exactly what a kept bucket would have given it")
    func evictionChangesNoAnswer() {
        let gate = IngestGate(maxConcurrent: 1, batchesPerMinute: 2)
        let start = Date()
        #expect(gate.admit(app: "a", at: start) == nil)
        #expect(gate.admit(app: "a", at: start) == nil)
        #expect(gate.admit(app: "a", at: start) != nil)
        #expect(gate.admit(app: "a", at: start.addingTimeInterval(61)) == nil)
    }
}
