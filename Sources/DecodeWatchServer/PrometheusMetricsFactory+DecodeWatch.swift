import Prometheus

extension PrometheusMetricsFactory {
    /// The collector's metrics: created with swift-metrics (`Counter`, `Timer`, `Recorder`), kept in `registry` and
    /// served from it at `/metrics`, each histogram with buckets around the times and sizes it sees.
    ///
    /// `serve` bootstraps `MetricsSystem` with it, so that the store's metrics land in the same registry; the
    /// application's own metrics are made with it explicitly, so that every application built in one process (as
    /// tests build them) counts in its own registry.
    /// - Parameter registry: where the metrics are kept, and read at `/metrics`.
    /// - Returns: the factory.
    package static func decodewatch(registry: PrometheusCollectorRegistry) -> Self {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = [
            MetricLabel.ingestDuration: [
                .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500),
                .seconds(2),
            ],
            MetricLabel.commitDuration: [
                .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                .milliseconds(100), .seconds(1),
            ],
            MetricLabel.alertEvaluationDuration: [
                .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(2),
            ],
        ]
        factory.valueHistogramBuckets = [MetricLabel.batchesPerCommit: [1, 2, 4, 8, 16, 32, 64]]
        return factory
    }
}

/// The names of the collector's histograms at `/metrics`, `decodewatch_<subsystem>_<metric>_<unit>`, shared by
/// the metric and its buckets in ``PrometheusMetricsFactory/decodewatch(registry:)``.
package enum MetricLabel {
    /// Time from an ingest request to its committed answer.
    package static let ingestDuration = "decodewatch_ingest_duration_seconds"
    /// Time one commit took, from its start to the end of its transaction.
    package static let commitDuration = "decodewatch_ingest_commit_duration_seconds"
    /// Batches stored together in one transaction.
    package static let batchesPerCommit = "decodewatch_ingest_batches_per_commit"
    /// Time to read the rollups, match every rule and claim the alerts of one evaluation.
    package static let alertEvaluationDuration = "decodewatch_alert_evaluation_duration_seconds"
}
