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
        let batches = "decodewatch_ingest_batches_total"
        let batchesHelp = "Ingest requests by outcome."
        storedBatches = registry.makeCounter(name: batches, labels: [("outcome", "stored")], help: batchesHelp)
        duplicateBatches = registry.makeCounter(name: batches, labels: [("outcome", "duplicate")], help: batchesHelp)
        refusedBatches = registry.makeCounter(name: batches, labels: [("outcome", "refused")], help: batchesHelp)
        let reports = "decodewatch_ingest_reports_total"
        let reportsHelp = "Reports in stored batches, accepted or rejected."
        acceptedReports = registry.makeCounter(name: reports, labels: [("outcome", "accepted")], help: reportsHelp)
        rejectedReports = registry.makeCounter(name: reports, labels: [("outcome", "rejected")], help: reportsHelp)
        let bytes = "decodewatch_ingest_bytes_total"
        let bytesHelp = "Ingest body bytes, as sent and inflated."
        compressedBytes = registry.makeCounter(name: bytes, labels: [("stage", "compressed")], help: bytesHelp)
        inflatedBytes = registry.makeCounter(name: bytes, labels: [("stage", "inflated")], help: bytesHelp)
        duration = registry.makeDurationHistogram(
            name: "decodewatch_ingest_duration_seconds",
            buckets: [
                .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500),
                .seconds(2),
            ],
            help: "Time from request to committed answer.")
    }
}
