import Metrics

/// One counter metric split by the values of one dimension (`outcome`, `stage`), every value registered once so
/// that counting does no registry lookup and every series is exposed from the start at 0.
package struct CounterFamily<Value: RawRepresentable & CaseIterable & Hashable & Sendable>: Sendable
where Value.RawValue == String {
    private let counters: [Value: Counter]

    /// Registers a counter for each value.
    /// - Parameters:
    ///   - label: the metric's name, e.g. `decodewatch_ingest_batches_total`.
    ///   - dimension: the dimension the values belong to, e.g. `outcome`.
    ///   - factory: where the counters are registered.
    package init(_ label: String, dimension: String, factory: any MetricsFactory) {
        var counters: [Value: Counter] = [:]
        for value in Value.allCases {
            counters[value] = Counter(label: label, dimensions: [(dimension, value.rawValue)], factory: factory)
        }
        self.counters = counters
    }

    /// The counter of one value.
    package subscript(_ value: Value) -> Counter {
        counters[value]!
    }
}

/// How a periodic job's run ended, the `outcome` of its runs' counter.
package enum RunOutcome: String, CaseIterable, Sendable {
    case ok, failed
}
