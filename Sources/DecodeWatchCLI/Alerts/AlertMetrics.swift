import DecodeWatchServer
import Metrics

/// The alerting counters at `/metrics`: evaluations, and the outcome of each delivery.
struct AlertMetrics: Sendable {
    /// The `outcome` of an alert webhook delivery (failed: every attempt failed).
    enum DeliveryOutcome: String, CaseIterable, Sendable {
        case delivered, failed
    }

    /// `decodewatch_alert_evaluations_total`: alert rule evaluations by outcome.
    let evaluations: CounterFamily<RunOutcome>
    /// Time to read the rollups, match every rule and claim the alerts of one evaluation.
    let evaluationDuration: Timer
    /// `decodewatch_alert_deliveries_total`: alert webhook deliveries by outcome.
    let deliveries: CounterFamily<DeliveryOutcome>
    /// `decodewatch_alert_delivery_retries_total`: alert webhook attempts that failed and were retried.
    let retries: Counter

    init(factory: any MetricsFactory) {
        evaluations = CounterFamily("decodewatch_alert_evaluations_total", dimension: "outcome", factory: factory)
        evaluationDuration = Timer(label: MetricLabel.alertEvaluationDuration, factory: factory)
        deliveries = CounterFamily("decodewatch_alert_deliveries_total", dimension: "outcome", factory: factory)
        retries = Counter(label: "decodewatch_alert_delivery_retries_total", factory: factory)
    }
}
