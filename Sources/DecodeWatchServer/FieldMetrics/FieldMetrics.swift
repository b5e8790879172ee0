import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Logging
import Metrics
import ServiceLifecycle

/// Keeps the breaking fields with the most reports in the last ``window`` at `/metrics` (docs/api.md#field-metrics),
/// read from the store every ``interval``, as a `Service` beside the HTTP server.
///
/// A scrape only reads the registry, so `/metrics` answers as fast, and as surely, whatever the database is doing:
/// a slow or failing store leaves the last values in place (the failure is logged and counted) rather than
/// slowing or breaking the scrape. The fields are read with the breaking-fields summary's own query, so
/// `decodewatch_field_reports` and `decodewatch_field_rate` are the `count` and `rate` of `GET /v1/fields` over
/// the same window.
actor FieldMetrics: Service {
    /// Where the fields are read.
    let store: any FieldReads
    /// Waited for before each read, as a request waits: the gauges never leave out an acknowledged batch.
    let sink: any BatchSink
    /// The most fields exposed at once.
    let limit: Int
    /// The window the counts and rates cover, ending at each refresh.
    let window: TimeInterval
    /// Time between refreshes.
    let interval: Duration
    let logger: Logger
    private let factory: any MetricsFactory
    /// `decodewatch_field_metrics_refreshes_total`: refreshes by outcome.
    private let refreshes: CounterFamily<RunOutcome>
    /// The series now exposed, by group id.
    private var series: [String: FieldSeries] = [:]

    /// Creates the service; nothing is read before it runs.
    init(
        store: any FieldReads, sink: any BatchSink, limit: Int, window: TimeInterval, interval: Duration,
        factory: any MetricsFactory, logger: Logger
    ) {
        self.store = store
        self.sink = sink
        self.limit = limit
        self.window = window
        self.interval = interval
        self.factory = factory
        self.logger = logger
        refreshes = CounterFamily("decodewatch_field_metrics_refreshes_total", dimension: "outcome", factory: factory)
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            repeat {
                await self.refresh(now: Date())
            } while (try? await Task.sleep(for: self.interval)) != nil
        }
    }

    /// Reads the top fields of the window ending at `now` and exposes them; fields no longer among them leave
    /// `/metrics`. When the store fails, the series exposed stay as they were.
    func refresh(now: Date) async {
        let query = FieldsQuery(since: now.addingTimeInterval(-window), until: now, limit: limit)
        let fields: [FieldSummary]
        do {
            try await sink.settle()
            fields = try await store.fields(query).fields
        } catch {
            // A refresh cut short by shutdown is no failure of the store.
            guard !Task.isCancelled else { return }
            refreshes[.failed].increment()
            logger.warning(
                "Field metrics keep their last values: the breaking fields could not be read",
                metadata: ["error": "\(error)"])
            return
        }
        show(fields)
        refreshes[.ok].increment()
    }

    /// Replaces the exposed series with those of `fields`, removing first the series of fields that left, so that a
    /// scrape never sees more than ``limit`` fields.
    private func show(_ fields: [FieldSummary]) {
        let groups = Set(fields.map(\.group))
        for (group, gone) in series where !groups.contains(group) {
            gone.destroy()
            series[group] = nil
        }
        for field in fields {
            series[field.group, default: FieldSeries(field, factory: factory)].record(field)
        }
    }
}
