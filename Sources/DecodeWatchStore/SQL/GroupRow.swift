import DecodeWatchCore
import Foundation

/// One group's row as the commit writes it: its deltas from every batch folded.
struct GroupRow {
    let key: GroupKey
    var firstSeen: Date
    var lastSeen: Date
    /// The latest report's details, redacted.
    private(set) var sample: Sample
    /// The version of the batch with the latest report.
    var version: String
    /// The OS version and environment of that batch.
    var os: String
    var environment: String

    init(_ delta: GroupDelta, of batch: BatchAggregate) {
        key = delta.key
        firstSeen = delta.firstSeen
        lastSeen = delta.lastSeen
        sample = delta.sample
        version = batch.version
        os = batch.os
        environment = batch.environment
    }

    /// Adds a later batch's delta: the latest report's sample wins, a later batch on ties, as in one batch.
    mutating func fold(_ delta: GroupDelta, of batch: BatchAggregate) {
        firstSeen = min(firstSeen, delta.firstSeen)
        guard delta.lastSeen >= lastSeen else { return }
        lastSeen = delta.lastSeen
        sample = delta.sample
        version = batch.version
        os = batch.os
        environment = batch.environment
    }
}
