import BenchmarkSupport

/// 6,000 reports drawn once per seed, which batches then pick from, as `realistic_batches.py` does: writing a
/// report is the slow part, and 6,000 keep batches varied while letting a large run be written quickly.
struct FragmentPool: Sendable {
    /// One report's JSON text without `occurred_at` and without its opening brace (`"endpoint":…,"count":1}`).
    struct Fragment: Sendable {
        /// The report's JSON text after `{"occurred_at":"…",`.
        var json: String
        /// The index of its endpoint in `RealisticEndpoint.all`.
        var endpoint: Int
    }

    /// The reports, in the order they were drawn.
    let fragments: [Fragment]

    /// Draws `count` reports for `seed`: an endpoint each as likely, then one of its failure shapes by weight.
    init(seed: String, count: Int = 6000) {
        var random = SplitMix64(label: "pool-\(seed)")
        fragments = (0..<count).map { _ in
            let index = random.int(0..<RealisticEndpoint.all.count)
            let endpoint = RealisticEndpoint.all[index]
            let shape = endpoint.shapes[random.index(cumulative: RealisticEndpoint.cumulativeShapeWeights)]
            let raw = endpoint.raw(&random)
            let path = shape.pathJSON(using: &random)
            let message = shape.message(&random)
            let snippet = shape.snippet(&random)
            let json =
                "\"endpoint\":\(JSONText.string(raw)),\"type\":\(JSONText.string(endpoint.type)),\"path\":\(path),"
                + "\"kind\":\(JSONText.string(shape.kind)),\"expected\":\(JSONText.string(shape.expected)),"
                + "\"message\":\(JSONText.string(message)),\"snippet\":\(JSONText.string(snippet)),\"count\":1}"
            return Fragment(json: json, endpoint: index)
        }
    }
}
