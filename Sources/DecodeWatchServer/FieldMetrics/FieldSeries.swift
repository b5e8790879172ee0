import DecodeWatchCore
import Metrics

/// The gauges of one breaking field at `/metrics`: `decodewatch_field_reports` and, while its endpoint reported
/// decodes in the window, `decodewatch_field_rate`.
///
/// Each is made and destroyed through swift-metrics; destroying a gauge unregisters it from the Prometheus
/// registry, so its series leaves the exposition instead of staying at its last value.
struct FieldSeries {
    private let factory: any MetricsFactory
    private let labels: [(String, String)]
    private let reports: Gauge
    private var rate: Gauge?

    /// Creates the field's series, labelled `app`, `endpoint`, `path`, `kind` and `group` (the stable group id, which
    /// the other four determine, so it adds no series and lets a dashboard link to `/groups/{group}`).
    init(_ field: FieldSummary, factory: any MetricsFactory) {
        self.factory = factory
        labels = [
            ("app", field.app), ("endpoint", field.endpoint), ("path", field.path), ("kind", field.kind.rawValue),
            ("group", field.group),
        ]
        reports = Gauge(label: "decodewatch_field_reports", dimensions: labels, factory: factory)
    }

    /// Sets the values of the field's latest summary; its rate series is removed while it has no rate.
    mutating func record(_ field: FieldSummary) {
        reports.record(field.count)
        if let value = field.rate {
            if rate == nil { rate = Gauge(label: "decodewatch_field_rate", dimensions: labels, factory: factory) }
            rate?.record(value)
        } else {
            rate?.destroy()
            rate = nil
        }
    }

    /// Removes the field's series from `/metrics`.
    func destroy() {
        reports.destroy()
        rate?.destroy()
    }
}
