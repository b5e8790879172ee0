import DecodeWatchServer
import Metrics

/// The alerting counters at `/metrics`: evaluations, and the outcome of each delivery.
struct AlertMetrics: Sendable {
    /// `decodewatch_alert_evaluations_total`: alert rule evaluations by outcome.
    let evaluations: Counter
    let failedEvaluations: Counter
    /// Time to read the rollups, match every rule and claim the alerts of one evaluation.
    let evaluationDuration: Timer
    /// `decodewatch_alert_deliveries_total`: alert webhook deliveries by outcome (failed: every attempt failed).
    let delivered: Counter
    let failed: Counter
    /// `decodewatch_alert_delivery_retries_total`: alert webhook attempts that failed and were retried.
    let retries: Counter

    init(factory: any MetricsFactory) {
        evaluations = Counter(
            label: "decodewatch_alert_evaluations_total", dimensions: [("outcome", "ok")], factory: factory)
        failedEvaluations = Counter(
            label: "decodewatch_alert_evaluations_total", dimensions: [("outcome", "failed")], factory: factory)
        evaluationDuration = Timer(label: MetricLabel.alertEvaluationDuration, factory: factory)
        delivered = Counter(
            label: "decodewatch_alert_deliveries_total", dimensions: [("outcome", "delivered")], factory: factory)
        failed = Counter(
            label: "decodewatch_alert_deliveries_total", dimensions: [("outcome", "failed")], factory: factory)
        retries = Counter(label: "decodewatch_alert_delivery_retries_total", factory: factory)
    }
}
