import Foundation

/// Redacted samples remembered by what they were before redaction, so that a snippet many batches carry is redacted
/// once per process rather than once per batch (``IngestPipeline`` keeps one).
///
/// A sample is looked up by its whole text, never by a hash alone, so a hit is always the redaction of that very
/// sample. What it remembers is bounded in bytes (``maxBytes``): past that it starts over, so memory never grows
/// with the variety of snippets.
public final class SampleRedactions: @unchecked Sendable {
    /// What redacts a sample the first time it is seen.
    public let redactor: Redactor
    /// The most text, raw and redacted, remembered at once.
    public static let maxBytes = 4 << 20

    private let lock = NSLock()
    // Guarded by `lock`.
    private var remembered: [Sample: Sample] = [:]
    private var bytes = 0

    /// Creates an empty memory of redactions by `redactor`.
    public init(redactor: Redactor) {
        self.redactor = redactor
    }

    /// The sample redacted and cut (``Redactor/redacted(_:)``), from memory when it was seen before.
    public func redacted(_ sample: Sample) -> Sample {
        if let known = lock.withLock({ remembered[sample] }) { return known }
        let redacted = redactor.redacted(sample)
        let size = sample.textBytes + redacted.textBytes
        lock.withLock {
            if bytes + size > Self.maxBytes {
                remembered.removeAll(keepingCapacity: true)
                bytes = 0
            }
            if remembered.updateValue(redacted, forKey: sample) == nil { bytes += size }
        }
        return redacted
    }
}

extension Sample {
    /// The bytes of its texts, what remembering it costs.
    fileprivate var textBytes: Int {
        (snippet?.utf8.count ?? 0) + (message?.utf8.count ?? 0) + (type?.utf8.count ?? 0)
    }
}
