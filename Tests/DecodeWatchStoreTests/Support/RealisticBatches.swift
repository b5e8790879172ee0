import DecodeWatchCore
import Foundation

/// Batches shaped like a real app's, after `shared/bench/realistic_batches.py` (the workload ingest is judged on):
/// 100 reports each from raw endpoints with numeric ids, UUIDs and 24-hex ids, paths with array indexes and
/// id-like dictionary keys, 10 failure shapes per endpoint with skewed weights, Swift's messages, varied snippets,
/// three versions, 500 installs and three environments. Deterministic for a seed.
struct RealisticBatches {
    private var random: SeededRandom
    /// The first hour reports occur in; they span four hours from it.
    let start: Date

    init(seed: UInt64, start: Date) {
        random = SeededRandom(seed: seed)
        self.start = start
    }

    /// The body of the next batch, as an app would send it (identity encoding).
    mutating func next() throws -> Data {
        let version = pick([("5.2.0", 6), ("5.1.3", 3), ("5.3.0", 1)])
        var body: [String: Any] = [
            "batch_id": "b-\(random.next())", "app": ["id": "com.example.shop", "version": version],
            "install_id": "install-\(random.below(500))",
            "reports": try (0..<100).map { _ in try report() },
            "decodes": [["endpoint": endpoint(0), "count": 40 + random.below(200)]],
        ]
        body["environment"] = pick([("production", 16), ("staging", 3), (nil, 1)] as [(String?, Int)])
        return try JSONSerialization.data(withJSONObject: body)
    }

    private mutating func report() throws -> [String: Any] {
        let endpointIndex = random.below(3)
        let shape = pick((0..<10).map { ($0, 60 / ($0 + 1)) })
        let kinds = ["keyNotFound", "typeMismatch", "valueNotFound", "dataCorrupted"]
        let kind = kinds[(shape + endpointIndex) % kinds.count]
        let key = ["title", "price", "author", "email", "avatar_url", "status", "total", "id", "tags", "created_at"][
            shape]
        var path: [Any] = ["data", random.below(20), key]
        if shape % 3 == 1 { path = ["items", "\(random.below(90_000_000) + 10_000_000)", key] }
        if shape % 3 == 2 {
            path = ["results", random.below(50), "meta", String(format: "%016llx", random.next()), key]
        }
        let minute = random.below(240)
        var report: [String: Any] = [
            "occurred_at": RFC3339.string(from: start.addingTimeInterval(TimeInterval(minute * 60 + random.below(60)))),
            "endpoint": endpoint(endpointIndex), "path": path, "kind": kind,
            "count": random.below(10) == 0 ? 1 + random.below(5) : 1,
            "snippet":
                "{\"\(key)\":\(random.below(2) == 0 ? "null" : "\"v\(random.below(100_000))\""),\"n\":\(random.below(1000))}",
        ]
        if kind == "typeMismatch" {
            report["expected"] = ["String", "Int", "Double", "Bool"][shape % 4]
            report["message"] = "Expected to decode \(report["expected"]!) but found a number instead."
        } else if kind == "keyNotFound" {
            report["message"] =
                "No value associated with key CodingKeys(stringValue: \"\(key)\", intValue: nil) (\"\(key)\")."
        }
        return report
    }

    private mutating func endpoint(_ index: Int) -> String {
        switch index {
        case 0: return "GET /v2/users/\(random.below(10_000_000) + 1)/posts?page=\(random.below(29) + 1)"
        case 1:
            let uuid = String(
                format: "%08llX-%04llX-4%03llX-%04llX-%012llX", random.next() >> 32, random.next() >> 48,
                random.next() >> 52, 0x8000 | (random.next() >> 50), random.next() >> 16)
            return "GET https://api.example.com/v1/orders/\(random.below(2) == 0 ? uuid : uuid.lowercased())"
        default:
            return "POST /v2/carts/\(String(format: "%012llx%012llx", random.next() >> 16, random.next() >> 16))/items/"
        }
    }

    private mutating func pick<T>(_ weighted: [(T, Int)]) -> T {
        var draw = random.below(weighted.reduce(0) { $0 + $1.1 })
        for (value, weight) in weighted {
            if draw < weight { return value }
            draw -= weight
        }
        return weighted[weighted.count - 1].0
    }
}

/// SplitMix64: a small generator whose sequence a seed fixes.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
