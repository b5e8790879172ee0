/// The largest count one rollup cell holds; additions saturate there.
///
/// Clients send counts, so storage must never overflow whatever they send: a cell saturates at 2^44
/// (about 17.6 trillion) and a query's sum at 2^53 (``SQLDialect/cappedSum(_:)``), so neither the
/// database nor the Swift code adding sums can overflow. Real counts are many orders of magnitude below both.
public enum StoredCount {
    /// 2^44.
    public static let max: Int64 = 1 << 44

    /// The largest sum a query returns: 2^53, the range in which a double is exact.
    public static let maxSum: Int64 = 1 << 53

    /// A count as stored: at most ``max``.
    static func clamp(_ count: Int) -> Int64 { Swift.min(Int64(count), max) }
}
