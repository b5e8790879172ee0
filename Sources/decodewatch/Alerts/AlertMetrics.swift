import Prometheus

/// The alerting counters at `/metrics`: evaluations, and the outcome of each delivery.
struct AlertMetrics: Sendable {
    let evaluations: Counter
    let failedEvaluations: Counter
    let evaluationDuration: DurationHistogram
    let delivered: Counter
    let failed: Counter
    let retries: Counter

    init(registry: PrometheusCollectorRegistry) {
        let evaluationsName = "decodewatch_alert_evaluations_total"
        let evaluationsHelp = "Alert rule evaluations by outcome."
        evaluations = registry.makeCounter(name: evaluationsName, labels: [("outcome", "ok")], help: evaluationsHelp)
        failedEvaluations = registry.makeCounter(
            name: evaluationsName, labels: [("outcome", "failed")], help: evaluationsHelp)
        evaluationDuration = registry.makeDurationHistogram(
            name: "decodewatch_alert_evaluation_duration_seconds",
            buckets: [.milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(2)],
            help: "Time to read the rollups, match every rule and claim the alerts of one evaluation.")
        let deliveries = "decodewatch_alert_deliveries_total"
        let deliveriesHelp = "Alert webhook deliveries by outcome (failed: every attempt failed)."
        delivered = registry.makeCounter(name: deliveries, labels: [("outcome", "delivered")], help: deliveriesHelp)
        failed = registry.makeCounter(name: deliveries, labels: [("outcome", "failed")], help: deliveriesHelp)
        retries = registry.makeCounter(
            name: "decodewatch_alert_delivery_retries_total",
            help: "Alert webhook attempts that failed and were retried.")
    }
}
