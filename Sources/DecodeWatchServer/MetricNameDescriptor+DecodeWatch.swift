import Prometheus

extension MetricNameDescriptor {
    /// A metric of the collector at `/metrics`, named `decodewatch_<subsystem>_<metric>_<unit>`.
    /// - Parameters:
    ///   - subsystem: the part it measures, e.g. `ingest`.
    ///   - metric: what it counts or times, e.g. `batches`.
    ///   - unit: `total` for counters, `seconds` for durations, empty for a plain value.
    ///   - help: the `# HELP` line.
    package static func decodewatch(_ subsystem: String, _ metric: String, unit: String, help: String) -> Self {
        MetricNameDescriptor(
            namespace: "decodewatch", subsystem: subsystem, metricName: metric, unitName: unit, helpText: help)
    }
}
