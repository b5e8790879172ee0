import BenchmarkSupport
import Foundation

/// One endpoint of the realistic workload: how its raw URLs look, the Swift type decoded from it, and its ten
/// failure shapes, the first the most frequent.
struct RealisticEndpoint: Sendable {
    /// Writes one raw endpoint as an app sends it, with fresh ids in path and query.
    var raw: @Sendable (inout SplitMix64) -> String
    /// The Swift type the app decodes.
    var type: String
    /// The ways its responses fail to decode.
    var shapes: [FailureShape]

    /// The three endpoints of `realistic_batches.py`: 30 failure shapes in all.
    static let all = [posts, orders, carts]

    /// Weights of an endpoint's failure shapes, `1/(1+i)^0.8`, as running sums: a few groups dominate, as in real
    /// traffic.
    static let cumulativeShapeWeights: [Double] = (0..<10).reduce(into: [Double]()) { sums, index in
        let weight: Double = 1 / pow(Double(1 + index), 0.8)
        sums.append((sums.last ?? 0) + weight)
    }
}
