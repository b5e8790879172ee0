import Metrics

/// The collector's own ingest counters, exposed at `/metrics`.
struct IngestMetrics: Sendable {
    /// `decodewatch_ingest_batches_total`: ingest requests by outcome.
    let storedBatches: Counter
    let duplicateBatches: Counter
    let refusedBatches: Counter
    /// `decodewatch_ingest_reports_total`: reports in stored batches, accepted or rejected.
    let acceptedReports: Counter
    let rejectedReports: Counter
    /// `decodewatch_ingest_bytes_total`: ingest body bytes, as sent and inflated.
    let compressedBytes: Counter
    let inflatedBytes: Counter
    /// Time from request to committed answer.
    let duration: Timer

    init(factory: any MetricsFactory) {
        func counter(_ label: String, _ dimension: (String, String)) -> Counter {
            Counter(label: label, dimensions: [dimension], factory: factory)
        }
        storedBatches = counter("decodewatch_ingest_batches_total", ("outcome", "stored"))
        duplicateBatches = counter("decodewatch_ingest_batches_total", ("outcome", "duplicate"))
        refusedBatches = counter("decodewatch_ingest_batches_total", ("outcome", "refused"))
        acceptedReports = counter("decodewatch_ingest_reports_total", ("outcome", "accepted"))
        rejectedReports = counter("decodewatch_ingest_reports_total", ("outcome", "rejected"))
        compressedBytes = counter("decodewatch_ingest_bytes_total", ("stage", "compressed"))
        inflatedBytes = counter("decodewatch_ingest_bytes_total", ("stage", "inflated"))
        duration = Timer(label: MetricLabel.ingestDuration, factory: factory)
    }
}
