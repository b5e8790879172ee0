import DecodeWatchServer
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
        let evaluationsName = MetricNameDescriptor.decodewatch(
            "alert", "evaluations", unit: "total", help: "Alert rule evaluations by outcome.")
        evaluations = registry.makeCounter(descriptor: evaluationsName, labels: [("outcome", "ok")])
        failedEvaluations = registry.makeCounter(descriptor: evaluationsName, labels: [("outcome", "failed")])
        evaluationDuration = registry.makeDurationHistogram(
            descriptor: .decodewatch(
                "alert", "evaluation_duration", unit: "seconds",
                help: "Time to read the rollups, match every rule and claim the alerts of one evaluation."),
            buckets: [.milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(2)])
        let deliveries = MetricNameDescriptor.decodewatch(
            "alert", "deliveries", unit: "total",
            help: "Alert webhook deliveries by outcome (failed: every attempt failed).")
        delivered = registry.makeCounter(descriptor: deliveries, labels: [("outcome", "delivered")])
        failed = registry.makeCounter(descriptor: deliveries, labels: [("outcome", "failed")])
        retries = registry.makeCounter(
            descriptor: .decodewatch(
                "alert", "delivery_retries", unit: "total", help: "Alert webhook attempts that failed and were retried."
            ))
    }
}
