import Prometheus

/// The collector's own ingest counters, exposed at `/metrics`.
struct IngestMetrics: Sendable {
    let storedBatches: Counter
    let duplicateBatches: Counter
    let refusedBatches: Counter
    let acceptedReports: Counter
    let rejectedReports: Counter
    let compressedBytes: Counter
    let inflatedBytes: Counter
    let duration: DurationHistogram

    init(registry: PrometheusCollectorRegistry) {
        let batches = MetricNameDescriptor.decodewatch(
            "ingest", "batches", unit: "total", help: "Ingest requests by outcome.")
        storedBatches = registry.makeCounter(descriptor: batches, labels: [("outcome", "stored")])
        duplicateBatches = registry.makeCounter(descriptor: batches, labels: [("outcome", "duplicate")])
        refusedBatches = registry.makeCounter(descriptor: batches, labels: [("outcome", "refused")])
        let reports = MetricNameDescriptor.decodewatch(
            "ingest", "reports", unit: "total", help: "Reports in stored batches, accepted or rejected.")
        acceptedReports = registry.makeCounter(descriptor: reports, labels: [("outcome", "accepted")])
        rejectedReports = registry.makeCounter(descriptor: reports, labels: [("outcome", "rejected")])
        let bytes = MetricNameDescriptor.decodewatch(
            "ingest", "bytes", unit: "total", help: "Ingest body bytes, as sent and inflated.")
        compressedBytes = registry.makeCounter(descriptor: bytes, labels: [("stage", "compressed")])
        inflatedBytes = registry.makeCounter(descriptor: bytes, labels: [("stage", "inflated")])
        duration = registry.makeDurationHistogram(
            descriptor: .decodewatch(
                "ingest", "duration", unit: "seconds", help: "Time from request to committed answer."),
            buckets: [
                .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500),
                .seconds(2),
            ])
    }
}
