@_spi(WireInternals) import DecodeWatchWire

/// What makes two reports the same failure, so that they fold into one with a `count`.
///
/// The path is the collector's grouping form (docs/wire-format.md#path: `$.results[*].title`), so a field broken in
/// every element of a list folds into one report instead of one per index.
struct FoldKey: Hashable, Sendable {
    var endpoint: String
    var path: String
    var kind: ReportKind
    var expected: String?
    var type: String?

    init(endpoint: String, path: [PathElement], kind: ReportKind, expected: String?, type: String?) {
        self.endpoint = endpoint
        self.path = PathRenderer.render(path)
        self.kind = kind
        self.expected = expected
        self.type = type
    }

    init(_ report: Report) {
        self.init(
            endpoint: report.endpoint, path: report.path, kind: report.kind, expected: report.expected,
            type: report.type)
    }
}

/// The reports and decode counts gathered between two flushes. Not thread-safe; ``Reporter`` locks it.
struct ReportBuffer: Sendable {
    /// What happened to a report given to the buffer.
    enum Outcome: Equatable {
        /// It joined an identical report already buffered.
        case folded
        /// It is the first of its kind.
        case added
        /// The buffer was full.
        case dropped
    }

    /// Most `count` of one report (docs/wire-format.md#limits).
    static let maxCount = 1_000_000

    /// Most distinct reports held.
    let capacity: Int
    private var reports: [FoldKey: Report] = [:]
    private var order: [FoldKey] = []
    private var decodes: [String: Int] = [:]
    private var decodeOrder: [String] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Distinct reports held.
    var count: Int { order.count }

    /// Whether nothing is held.
    var isEmpty: Bool { order.isEmpty && decodeOrder.isEmpty }

    /// Adds one to an identical report already held.
    /// - Returns: whether there was one; if not, the caller makes the snippet and calls ``insert(_:)``.
    mutating func fold(_ key: FoldKey) -> Bool {
        guard var existing = reports[key] else { return false }
        existing.count = min(existing.count + 1, Self.maxCount)
        reports[key] = existing
        return true
    }

    /// Adds a report, folding it into an identical one when there is one.
    mutating func insert(_ report: Report) -> Outcome {
        let key = FoldKey(report)
        if var existing = reports[key] {
            existing.count = min(existing.count + report.count, Self.maxCount)
            reports[key] = existing
            return .folded
        }
        guard order.count < capacity else { return .dropped }
        reports[key] = report
        order.append(key)
        return .added
    }

    /// Counts decoded responses of an endpoint.
    mutating func countDecode(endpoint: String, count: Int) {
        if let existing = decodes[endpoint] {
            decodes[endpoint] = existing + count
        } else {
            decodes[endpoint] = count
            decodeOrder.append(endpoint)
        }
    }

    /// The held reports in arrival order, without emptying the buffer.
    var snapshot: [Report] { order.compactMap { reports[$0] } }

    /// The held decode counts in arrival order.
    var decodeCounts: [DecodeCount] { decodeOrder.map { DecodeCount(endpoint: $0, count: decodes[$0] ?? 0) } }

    /// Empties the buffer.
    /// - Returns: the reports in arrival order and the decode counts.
    mutating func drain() -> (reports: [Report], decodes: [DecodeCount]) {
        defer {
            reports.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true)
            decodes.removeAll()
            decodeOrder.removeAll()
        }
        return (snapshot, decodeCounts)
    }
}
