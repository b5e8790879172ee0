import Metrics

/// The collector's own ingest counters, exposed at `/metrics`.
struct IngestMetrics: Sendable {
    /// The `outcome` of an ingest request.
    enum BatchOutcome: String, CaseIterable, Sendable {
        case stored, duplicate, refused
    }

    /// The `outcome` of a report in a stored batch.
    enum ReportOutcome: String, CaseIterable, Sendable {
        case accepted, rejected
    }

    /// The `stage` an ingest body's bytes are counted at: as sent, and inflated.
    enum BodyStage: String, CaseIterable, Sendable {
        case compressed, inflated
    }

    /// `decodewatch_ingest_batches_total`: ingest requests by outcome.
    let batches: CounterFamily<BatchOutcome>
    /// `decodewatch_ingest_reports_total`: reports in stored batches, accepted or rejected.
    let reports: CounterFamily<ReportOutcome>
    /// `decodewatch_ingest_bytes_total`: ingest body bytes, as sent and inflated.
    let bytes: CounterFamily<BodyStage>
    /// Time from request to committed answer.
    let duration: Timer

    init(factory: any MetricsFactory) {
        batches = CounterFamily("decodewatch_ingest_batches_total", dimension: "outcome", factory: factory)
        reports = CounterFamily("decodewatch_ingest_reports_total", dimension: "outcome", factory: factory)
        bytes = CounterFamily("decodewatch_ingest_bytes_total", dimension: "stage", factory: factory)
        duration = Timer(label: MetricLabel.ingestDuration, factory: factory)
    }
}
