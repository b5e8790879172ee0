@_spi(WireInternals) import DecodeWatchWire
import DecodeWatchZlib
import Foundation

/// The one way a batch becomes what storage writes: inflate, strict validation, aggregation, and each group's sample
/// redacted (docs/ARCHITECTURE.md#ingest).
///
/// A request runs it on the body it read, and a store that logs batches runs it on the bodies a stopped collector left
/// in its log (``rebuild(_:receivedAt:)``), so a batch counts the same whichever path writes its rollups. Stores receive only
/// its result, whose samples are already redacted.
public struct IngestPipeline: Sendable {
    /// Decodes and validates, with the collector's limits and route templates.
    public let validator: BatchValidator
    /// What each group's sample passes through before it leaves the pipeline: its redactor, remembering the
    /// redactions made so far, so that a sample many batches carry is redacted once.
    private let redactions: SampleRedactions
    /// The same pipeline under no size limit (``IngestLimits/acknowledged``), for ``rebuild(_:receivedAt:)``.
    private let recovering: BatchValidator

    /// Creates the pipeline.
    public init(validator: BatchValidator = BatchValidator(), redactor: Redactor = Redactor()) {
        self.init(
            validator: validator, redactions: SampleRedactions(redactor: redactor),
            recovering: BatchValidator(limits: .acknowledged, normalizer: validator.normalizer))
    }

    private init(validator: BatchValidator, redactions: SampleRedactions, recovering: BatchValidator) {
        self.validator = validator
        self.redactions = redactions
        self.recovering = recovering
    }

    /// Inflates a body as received, stopping as soon as a limit is passed; an identity body is returned as is.
    /// - Throws: ``ZlibError`` when the body is not what its encoding says, or inflates past a limit.
    public func inflate(_ source: BatchSource) throws(ZlibError) -> Data {
        let format: Zlib.Format
        switch source.encoding {
        case .identity: return source.body
        case .deflate: format = .zlib
        case .gzip: format = .gzip
        }
        let limits = validator.limits
        return try source.body.withUnsafeBytes { compressed in
            Result { () throws(ZlibError) in
                try Zlib.decompress(
                    compressed, format: format,
                    limits: InflateLimits(
                        maxBytes: limits.maxInflatedBytes, maxRatio: limits.maxInflationRatio,
                        ratioCheckMinimumBytes: limits.ratioCheckMinimumBytes))
            }
        }.get()
    }

    /// Inflates and validates a body as received.
    /// - Parameters:
    ///   - inflated: called with the inflated size before validation starts, for metrics.
    /// - Returns: the accepted reports with their groups, and what was rejected.
    /// - Throws: ``ZlibError`` when the body cannot be inflated within the limits, ``BatchError`` when the batch as a
    ///   whole is refused.
    public func validate(
        _ source: BatchSource, receivedAt: Date, inflated: (Int) -> Void = { _ in }
    ) throws -> ValidatedBatch {
        let body = try inflate(source)
        inflated(body.count)
        return try validator.validate(body, receivedAt: receivedAt)
    }

    /// Aggregates a validated batch into what storage writes, each group's sample redacted.
    public func aggregate(_ batch: consuming ValidatedBatch) -> BatchAggregate {
        BatchAggregate(batch, redactions: redactions)
    }

    /// Every step again on a body a collector acknowledged and did not fold, under no size limit: a batch
    /// acknowledged before a restart with lower limits is still counted.
    /// - Throws: what ``validate(_:receivedAt:inflated:)`` throws.
    public func rebuild(_ source: BatchSource, receivedAt: Date) throws -> BatchAggregate {
        let pipeline = IngestPipeline(validator: recovering, redactions: redactions, recovering: recovering)
        return pipeline.aggregate(try pipeline.validate(source, receivedAt: receivedAt))
    }
}
