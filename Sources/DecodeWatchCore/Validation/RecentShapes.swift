@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// The shapes a batch's decoder met lately: a report's `endpoint`, `path` and `kind` as written, so that the
/// reports of a batch that fail alike are known to be alike without comparing their values.
///
/// A batch repeats a few failures many times. Each new shape gets the next number; a report of a shape already
/// met gets that shape's number and shares its endpoint and path, so validation normalizes an endpoint, renders a
/// path and finds a group once per shape instead of once per report. Equal text always reads to equal values;
/// equal values written differently (an escape, a space) are two shapes, which validation then finds to be one
/// group.
///
/// The table is small and fixed, like ``RecentValues``: a shape that is not in it gets a new number and takes its
/// slot, so no input makes it grow. Slots point into the text being read: a table must not outlive those bytes.
struct RecentShapes {
    /// One shape: the hash of its text, the text of its endpoint and path values, its kind, its number, and the
    /// values the first report of the shape read.
    private struct Slot {
        var hash: UInt64
        var endpointText: UnsafeRawBufferPointer
        var pathText: UnsafeRawBufferPointer
        var kind: ReportKind
        var number: Int
        var endpoint: String
        var path: [PathElement]
    }

    private var slots: [Slot?] = Array(repeating: nil, count: 64)
    /// How many slots a shape may take, from the one its hash names.
    private static let probes = 4
    /// How many shapes were numbered: every number is below it.
    private(set) var count = 0

    /// The number of the shape of a report whose `endpoint` and `path` values are written as `endpointText` and
    /// `pathText`, and read as `endpoint` and `path`; with the endpoint and path to keep, shared with the
    /// shape's earlier reports when the table still holds it.
    mutating func shape(
        endpointText: UnsafeRawBufferPointer, endpoint: String, pathText: UnsafeRawBufferPointer,
        path: [PathElement], kind: ReportKind
    ) -> (number: Int, endpoint: String, path: [PathElement]) {
        let hash = ByteHash.of(pathText, seed: ByteHash.of(endpointText, seed: UInt64(kind.hashSeed)))
        let home = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        // A few slots from the hash's own, so that shapes whose hashes meet do not keep replacing each other; when
        // all are taken, the first is.
        var index = home
        for probe in 0..<Self.probes {
            let slot = (home &+ probe) & (slots.count - 1)
            guard let held = slots[slot] else {
                index = slot
                break
            }
            if held.hash == hash, held.kind == kind, Self.same(held.endpointText, endpointText),
                Self.same(held.pathText, pathText)
            {
                return (held.number, held.endpoint, held.path)
            }
        }
        let number = count
        count += 1
        slots[index] = Slot(
            hash: hash, endpointText: endpointText, pathText: pathText, kind: kind, number: number,
            endpoint: endpoint, path: path)
        return (number, endpoint, path)
    }

    private static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }
}

extension ReportKind {
    /// A distinct small number per kind, to start a shape's hash with.
    fileprivate var hashSeed: Int {
        switch self {
        case .keyNotFound: 1
        case .valueNotFound: 2
        case .typeMismatch: 3
        case .dataCorrupted: 4
        case .unknownValue: 5
        case .other: 6
        }
    }
}
