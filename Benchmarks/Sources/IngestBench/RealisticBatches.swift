import BenchmarkSupport
import Foundation

/// Writes batches shaped like a real app's, with the distributions of `realistic_batches.py`, the workload
/// DecodeWatch's ingest speed is judged on.
///
/// Each batch: 100 reports of `com.example.shop`, one of three versions (weights 0.6/0.3/0.1), one of four OS
/// versions, one of the installs, occurred within a 5-minute batch period in the last hour; reports from three
/// endpoints whose raw URLs need normalizing and whose paths need templating, ten failure shapes each (30 groups);
/// decode counts per raw endpoint. Deterministic for a seed and the time `now`.
struct RealisticBatches: Sendable {
    /// App versions with their builds, weighed by `cumulativeVersionWeights`.
    static let versions = [("5.2.0", "5204"), ("5.1.3", "5131"), ("5.3.0", "5300")]
    /// Running sums of the versions' weights 0.6, 0.3, 0.1.
    static let cumulativeVersionWeights = [0.6, 0.9, 1.0]
    /// The operating system versions, each as likely.
    static let osVersions = ["17.4.1", "17.5", "18.0", "16.7.8"]
    /// Reports per batch.
    static let reportsPerBatch = 100

    private let seed: String
    private let pool: FragmentPool
    private let installs: [String]
    /// `seconds[i]` is the UTC time `now - 3600 + i` as `yyyy-MM-ddTHH:mm:ss`.
    private let seconds: [String]

    /// A writer for `seed`.
    /// - Parameters:
    ///   - seed: any text; the same seed writes the same reports, installs and batch ids.
    ///   - installs: how many installs send the batches (500 in `realistic_batches.py`).
    ///   - now: the end of the hour the reports occur in.
    init(seed: String, installs: Int = 500, now: Date = Date()) {
        self.seed = seed
        pool = FragmentPool(seed: seed)
        var random = SplitMix64(label: "installs-\(seed)")
        self.installs = (0..<max(1, installs)).map { _ in random.uuid() }
        let formatter = ISO8601DateFormatter()
        let end = now.timeIntervalSince1970.rounded(.down)
        seconds = (0...3600).map { offset in
            String(formatter.string(from: Date(timeIntervalSince1970: end - 3600 + Double(offset))).dropLast())
        }
    }

    /// The JSON bodies of batches `indexes`; a chunk's batches depend only on the seed and its first index, so
    /// that chunks can be written in parallel.
    func bodies(_ indexes: Range<Int>) -> [Data] {
        var random = SplitMix64(label: "batch-\(seed)-\(indexes.lowerBound)")
        return indexes.map { Data(body(index: $0, random: &random).utf8) }
    }

    /// One batch; its id ends in its index, so that the ids of one run never repeat.
    private func body(index: Int, random: inout SplitMix64) -> String {
        // The batch period: 5 minutes ending at `end`, within [now - 3300, now - 6].
        let end = 300 + random.int(0..<3295)
        let (version, build) = Self.versions[random.index(cumulative: Self.cumulativeVersionWeights)]
        let batchID =
            "\(hex(random.bits(32), 8))-\(hex(random.bits(16), 4))-4\(hex(random.bits(12), 3))-"
            + "\(hex(0x8000 | random.bits(14), 4))-1\(hex(UInt64(index), 11))"
        var decodes = Array(repeating: 0, count: RealisticEndpoint.all.count)
        let reports = (0..<Self.reportsPerBatch).map { _ in
            let fragment = pool.fragments[random.int(0..<pool.fragments.count)]
            decodes[fragment.endpoint] += 1
            let occurred = "\(seconds[end - random.int(0..<300)]).\(decimal(random.int(0..<1000), 3))Z"
            return "{\"occurred_at\":\"\(occurred)\",\(fragment.json)"
        }
        let decodeCounts = RealisticEndpoint.all.indices.map { index in
            JSONText.object([
                "endpoint": JSONText.string(RealisticEndpoint.all[index].raw(&random)),
                "count": String(decodes[index] * 20 + random.int(0..<400)),
            ])
        }
        let sent = "\(seconds[end + 2]).\(decimal(random.int(0..<1000), 3))Z"
        let os = random.pick(Self.osVersions)
        let install = installs[random.int(0..<installs.count)]
        return "{\"batch_id\":\"\(batchID)\",\"sent_at\":\"\(sent)\",\"app\":{\"id\":\"com.example.shop\","
            + "\"version\":\"\(version)\",\"build\":\"\(build)\",\"platform\":\"iOS\",\"os\":\"\(os)\"},"
            + "\"sdk\":{\"name\":\"decodewatch-swift\",\"version\":\"0.1.0\"},\"install_id\":\"\(install)\","
            + "\"decodes\":\(JSONText.array(decodeCounts)),\"reports\":\(JSONText.array(reports))}"
    }
}
