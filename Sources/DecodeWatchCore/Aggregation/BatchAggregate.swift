@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// A validated batch aggregated into per-group, per-minute deltas: what storage writes, with the other
/// batches of its commit (per minute for recent windows, and summed into hours for every window).
///
/// Aggregating first keeps the write path to a few upserts per group instead of a row per report, and
/// every delta is an addition, so concurrent writers (several collector replicas) stay exact.
public struct BatchAggregate: Sendable {
    /// The client's batch id.
    public var batchID: String
    /// The app id.
    public var appID: String
    /// The app version, or `unknown` when the batch did not say.
    public var version: String
    /// The environment the batch counts in (``ValidatedBatch/environment``).
    public var environment: String
    /// The OS version the batch said it ran on (`app.os`), or `unknown`.
    public var os: String
    /// A 64-bit hash of the install id; the id itself is never stored.
    public var installHash: Int64?
    /// When the collector received the batch.
    public var receivedAt: Date
    /// How many accepted reports (not counting `count`) the batch had.
    public var acceptedReports: Int
    /// The groups touched.
    public var groups: [GroupDelta]
    /// Decode counts per normalized endpoint, all in the minute of ``ValidatedBatch/decodesAt``.
    public var decodes: [EndpointCount]
    /// The minute index the decode counts belong to.
    public var decodesMinute: Int64

    /// The version key used when a batch has no `app.version`, and the OS key when it has no `app.os`.
    public static let unknownVersion = "unknown"

    /// Aggregates a validated batch and redacts each group's sample with a redactor of its own, remembering nothing
    /// between batches.
    /// - Parameters:
    ///   - batch: the validated batch.
    ///   - redactor: what each group's sample is redacted with, so that storage receives no sample unredacted.
    public init(_ batch: ValidatedBatch, redactor: Redactor) {
        self.init(batch, redactions: SampleRedactions(redactor: redactor))
    }

    /// Aggregates a validated batch and redacts each group's sample (``IngestPipeline/aggregate(_:)``).
    /// - Parameters:
    ///   - batch: the validated batch.
    ///   - redactions: what each group's sample is redacted through, so that storage receives no sample unredacted;
    ///     a sample it redacted before is not redacted again.
    public init(_ batch: ValidatedBatch, redactions: SampleRedactions) {
        self.batchID = batch.batchID
        self.appID = batch.app.id
        self.version = batch.app.version ?? Self.unknownVersion
        self.environment = batch.environment
        self.os = batch.app.os ?? Self.unknownVersion
        self.installHash = batch.installID.map { id in
            var hash = FNV1a()
            hash.combine(id)
            return Int64(bitPattern: hash.value)
        }
        self.receivedAt = batch.receivedAt
        self.acceptedReports = batch.accepted.count
        self.decodesMinute = Minute.index(of: batch.decodesAt)
        // By exact bytes, as the database keeps endpoints apart.
        var decodes: [ExactText: Int] = [:]
        for entry in batch.decodes {
            decodes[ExactText(entry.endpoint), default: 0].addSaturating(entry.count)
        }
        self.decodes = decodes.sorted { $0.key < $1.key }.map { EndpointCount(endpoint: $0.key.text, count: $0.value) }

        // Groups in the order the batch first names them, which is the order validation numbered them in.
        var deltas: [GroupDelta] = []
        deltas.reserveCapacity(batch.groupKeys.count)
        // Read in place, through the buffer: a `for` loop, or the array's subscript where a delta is being
        // changed, copies each report and so retains all of its strings.
        batch.accepted.withUnsafeBufferPointer { accepted in
            for index in accepted.indices {
                let minute = Minute.index(of: accepted[index].report.occurredAt)
                let group = accepted[index].group
                if group == deltas.count {
                    deltas.append(
                        GroupDelta(
                            key: batch.groupKeys[group], firstReport: accepted[index].report,
                            sample: redactions.redacted(Sample(accepted[batch.samples[group]].report))))
                }
                deltas[group].add(
                    at: accepted[index].report.occurredAt, minute: minute, expected: accepted[index].report.expected,
                    count: accepted[index].report.count)
            }
        }
        self.groups = deltas
    }
}

extension Redactor {
    /// A sample as storage keeps it: snippet and message redacted, then cut to their limits, in that order, so a
    /// secret cut in half is still caught.
    public func redacted(_ sample: Sample) -> Sample {
        Sample(
            snippet: sample.snippet.map { redactSnippet($0, maxBytes: IngestLimits.Field.snippetBytes) },
            message: sample.message.map { redactMessage($0, maxCharacters: IngestLimits.Field.message) },
            type: sample.type, keyDecoding: sample.keyDecoding)
    }
}

/// What one batch adds to one group.
public struct GroupDelta: Sendable {
    /// The group key.
    public var key: GroupKey
    /// Earliest `occurred_at` in the batch for this group.
    public var firstSeen: Date
    /// Latest `occurred_at` in the batch for this group.
    public var lastSeen: Date
    /// Report counts by the minute they occurred in and their expected type, in the order the batch sent them.
    ///
    /// A run of reports of one minute and expected type, as a group's reports in a batch mostly are, is one entry; a
    /// pair may recur after others, and storage adds equal cells up as it sorts them. A list rather than two
    /// dictionaries, whose making, filling and freeing showed in the one-core loop's instructions.
    public var counts: [MinuteCount] = []
    /// The latest report's details (``ValidatedBatch/samples``), redacted and cut (``Redactor/redacted(_:)``).
    public private(set) var sample: Sample

    init(key: GroupKey, firstReport report: borrowing Report, sample: Sample) {
        self.key = key
        self.firstSeen = report.occurredAt
        self.lastSeen = report.occurredAt
        self.sample = sample
    }

    /// Adds a report, by the fields it is counted by: a report passed whole is copied, with all its strings.
    /// - Parameters:
    ///   - occurredAt: when it occurred, in `minute`.
    ///   - expected: the type it expected, when it said.
    ///   - count: its `count`.
    mutating func add(at occurredAt: Date, minute: Int64, expected: String?, count: Int) {
        if let last = counts.indices.last, counts[last].minute == minute, counts[last].expected == expected {
            counts[last].count.addSaturating(count)
        } else {
            counts.append(MinuteCount(minute: minute, expected: expected, count: count))
        }
        firstSeen = min(firstSeen, occurredAt)
        lastSeen = max(lastSeen, occurredAt)
    }
}

/// Reports of one group that occurred in one minute with one expected type.
public struct MinuteCount: Sendable, Equatable {
    /// The minute index.
    public var minute: Int64
    /// The type the reports expected, when they said.
    public var expected: String?
    /// How many failures (each report's `count`, added up).
    public var count: Int
}

/// One example of a group's failures (docs/api.md#summary-fields, `sample`).
public struct Sample: Codable, Sendable, Hashable {
    /// The redacted JSON snippet.
    public var snippet: String?
    /// The error's debug description.
    public var message: String?
    /// The Swift type that was being decoded.
    public var type: String?
    /// How the app's decoder named the payload's keys, when its SDK said (``KeyDecoding``).
    public var keyDecoding: KeyDecoding?

    /// Creates a sample.
    public init(
        snippet: String? = nil, message: String? = nil, type: String? = nil, keyDecoding: KeyDecoding? = nil
    ) {
        self.snippet = snippet
        self.message = message
        self.type = type
        self.keyDecoding = keyDecoding
    }

    /// Borrows the report: only its four fields are copied, not the whole report.
    init(_ report: borrowing Report) {
        self.init(
            snippet: report.snippet, message: report.message, type: report.type, keyDecoding: report.keyDecoding)
    }

    enum CodingKeys: String, CodingKey {
        case snippet, message, type
        case keyDecoding = "key_decoding"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(snippet, forKey: .snippet)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(type, forKey: .type)
        try container.encodeIfPresent(keyDecoding, forKey: .keyDecoding)
    }
}
