@_spi(WireInternals) import DecodeWatchWire

/// The groups of one batch as validation finds them, numbered in the order their first accepted report comes.
///
/// A group is found once per report shape (``RecentShapes``), not once per report: the reports of a shape already
/// placed go to its group without their endpoint being normalized or their path rendered again. A report of a new
/// shape has its endpoint normalized and its path rendered into reused buffers, and the forms are numbered
/// (``InternedTexts``): the group is found by those numbers and the kind, since the app is the batch's.
struct BatchGroups {
    /// The key of each group, by number.
    private(set) var keys: [GroupKey] = []
    private var numbers: [Form: Int] = [:]
    /// The group of each shape, by shape number; `-1` while none is known.
    private var shapeGroups: [Int]
    private var endpoints = InternedTexts()
    private var paths = InternedTexts()
    /// The buffer each endpoint is normalized into, and each path rendered into.
    private var buffer: [UInt8] = []

    /// What tells groups of one batch apart: the numbers of the endpoint's and the path's forms, and the kind.
    private struct Form: Hashable {
        var endpoint: Int
        var path: Int
        var kind: ReportKind
    }

    /// Groups for a batch whose reports have shape numbers below `shapeCount`.
    init(shapeCount: Int) {
        shapeGroups = Array(repeating: -1, count: shapeCount)
        // There are at most as many groups as shapes: sized once, the table is never rehashed as it fills.
        numbers.reserveCapacity(shapeCount)
        buffer.reserveCapacity(256)
    }

    /// The group that reports of shape `shape` go to, once one of them was accepted; `nil` before, or for `-1`.
    func group(ofShape shape: Int) -> Int? {
        guard shapeGroups.indices.contains(shape) else { return nil }
        let group = shapeGroups[shape]
        return group < 0 ? nil : group
    }

    /// The number of an endpoint's grouping form (``EndpointNormalizer/normalize(_:)``), or `nil` when it is not
    /// `"METHOD /path"`.
    mutating func endpoint(_ endpoint: String, normalizer: EndpointNormalizer) -> Int? {
        var endpoint = endpoint
        guard endpoint.withUTF8({ normalizer.normalize(utf8: $0, into: &buffer) }) else { return nil }
        return buffer.withUnsafeBufferPointer { endpoints.number(of: $0) }
    }

    /// The number of the group of reports of `app` with the endpoint form numbered `endpoint` (``endpoint(_:normalizer:)``),
    /// `path` and `kind`, numbering it when it is new; remembered for `shape` too.
    mutating func group(app: String, endpoint: Int, path: [PathElement], kind: ReportKind, shape: Int) -> Int {
        PathRenderer.render(path, into: &buffer)
        let form = Form(endpoint: endpoint, path: buffer.withUnsafeBufferPointer { paths.number(of: $0) }, kind: kind)
        // One hash of the form whether it is new or not: the `default:` subscript's in-place access inserts it.
        let next = keys.count
        let group = Self.value(of: &numbers[form, default: next])
        if group == next {
            keys.append(
                GroupKey(app: app, endpoint: endpoints.strings[endpoint], path: paths.strings[form.path], kind: kind))
        }
        if shapeGroups.indices.contains(shape) { shapeGroups[shape] = group }
        return group
    }

    private static func value(of slot: inout Int) -> Int { slot }
}
