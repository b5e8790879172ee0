import DecodeWatchCore

/// The two resolutions counts are kept at, in tables of the same shape: hourly for every window, and per
/// minute (for ``Minute/kept``) for the partial hours at the edges of recent windows.
///
/// Cell tables name a group by its `group_seq`, the integer its `groups` row was given, rather than by its
/// 32-character `group_id`: a window's totals read every group's cells, and integer keys keep those rows small.
enum Rollup: CaseIterable {
    case hour
    case minute

    /// The bucket column: an ``Hour`` or a ``Minute`` index.
    var column: String {
        switch self {
        case .hour: return "hour"
        case .minute: return "minute"
        }
    }

    /// The minute a bucket of this resolution begins at.
    func firstMinute(of bucket: Int64) -> Int64 {
        switch self {
        case .hour: bucket * 60
        case .minute: bucket
        }
    }

    /// Report counts per group and bucket.
    var groupCounts: String { "group_\(column)s" }
    /// Report counts per group, bucket and app version.
    var versions: String { "group_\(column)_versions" }
    /// Report counts per group, bucket and expected type.
    var expected: String { "group_\(column)_expected" }
    /// Install hashes per group and bucket, kept exactly up to ``InstallFold/limit`` per cell.
    var installs: String { "group_\(column)_installs" }
    /// A HyperLogLog sketch per group and bucket, for the cells whose installs went past ``InstallFold/limit``.
    var installSketches: String { "group_\(column)_install_sketches" }
    /// Decode counts per app, endpoint and bucket.
    var endpointCounts: String { "endpoint_\(column)s" }
    /// Decode counts per app, app version, endpoint and bucket: the denominators of per-version rates. Decodes
    /// stored before this table existed have no version, and are only in ``endpointCounts``.
    var endpointVersionCounts: String { "endpoint_version_\(column)s" }

    /// The `group_seq` that names a group in the cell tables, from an expression of its `group_id`.
    static func seq(ofGroup id: String) -> String {
        "(SELECT group_seq FROM groups WHERE group_id = \(id))"
    }

    /// The tables hanging on a group's cells besides ``installs``, children before ``groupCounts``: retention
    /// deletes a cell's install rows first, a bounded number at a time, and these once none are left.
    var tablesBesideInstalls: [String] { [versions, expected, installSketches, groupCounts] }
}
