import DecodeWatchCore
import Foundation
import Testing

/// The install sketch: within the 2 % of docs/api.md#installs-and-rates at every size, mergeable, and safe to read back
/// from storage.
@Suite struct HyperLogLogTests {
    /// The hashes the collector stores for `count` install ids: FNV-1a, whose bits avalanche weakly.
    static func installHashes(_ range: Range<Int>) -> [UInt64] {
        range.map { index in
            var hash = FNV1a()
            hash.combine("install-\(index)")
            return hash.value
        }
    }

    static func sketch(_ range: Range<Int>) -> HyperLogLog {
        var sketch = HyperLogLog()
        for hash in installHashes(range) { sketch.add(hash: hash) }
        return sketch
    }

    // 42,000 is where the classic estimator leaves linear counting and overestimates by about 2.5 %.
    @Test(
        "the estimate of FNV-1a install hashes is within 2 % at every size",
        arguments: [1_000, 10_000, 42_000, 100_000, 1_000_000])
    func estimateWithinTwoPercent(count: Int) {
        let estimate = Self.sketch(0..<count).estimate
        #expect(abs(Double(estimate - count)) <= 0.02 * Double(count), "\(estimate) for \(count)")
    }

    @Test("an empty sketch estimates 0, and adding a hash again changes nothing")
    func emptyAndIdempotent() {
        #expect(HyperLogLog().estimate == 0)
        var twice = Self.sketch(0..<500)
        for hash in Self.installHashes(0..<500) { twice.add(hash: hash) }
        #expect(twice == Self.sketch(0..<500))
    }

    @Test("merging the sketches of two halves gives the sketch of the whole, overlap counted once")
    func mergeOfHalvesEqualsWhole() {
        var merged = Self.sketch(0..<30_000)
        merged.merge(Self.sketch(20_000..<50_000))
        #expect(merged == Self.sketch(0..<50_000))
        #expect(merged.estimate == Self.sketch(0..<50_000).estimate)
    }

    @Test("bytes read back to the same sketch, sparse when small and dense when full", arguments: [1_001, 100_000])
    func bytesRoundTrip(count: Int) throws {
        let sketch = Self.sketch(0..<count)
        let bytes = sketch.bytes
        #expect(try HyperLogLog(bytes: bytes) == sketch)
        #expect(bytes.count <= 3 + HyperLogLog.registerCount)
        if count < 2_000 { #expect(bytes.count < 3_200) }
        #expect(try HyperLogLog(bytes: HyperLogLog().bytes) == HyperLogLog())
    }

    @Test("damaged or foreign bytes are refused with a reason, never read or crashed on", arguments: Damage.allCases)
    func corruptedBytesAreRefused(damage: Damage) {
        #expect(throws: SketchFormatError.self) { try HyperLogLog(bytes: Data(damage.bytes)) }
    }

    /// Stored bytes, each broken in one way.
    enum Damage: String, CaseIterable, Sendable {
        case empty, headerCutShort, newerFormatVersion, otherPrecision, unknownLayout, denseCutShort
        case denseRegisterTooLarge, sparseCutShort, sparseOutOfOrder, sparseIndexOutOfRange, sparseRegisterZero

        var bytes: [UInt8] {
            let dense = [UInt8](HyperLogLogTests.sketch(0..<100_000).bytes)
            let sparse = [UInt8](HyperLogLogTests.sketch(0..<100).bytes)
            let header: [UInt8] = [HyperLogLog.formatVersion, UInt8(HyperLogLog.precision)]
            switch self {
            case .empty: return []
            case .headerCutShort: return header
            case .newerFormatVersion: return [HyperLogLog.formatVersion + 1] + dense.dropFirst()
            case .otherPrecision: return [dense[0], 12] + dense.dropFirst(2)
            case .unknownLayout: return header + [7] + dense.dropFirst(3)
            case .denseCutShort: return Array(dense.dropLast())
            case .denseRegisterTooLarge: return Array(dense.prefix(3)) + [HyperLogLog.maxRank + 1] + dense.dropFirst(4)
            case .sparseCutShort: return Array(sparse.dropLast())
            case .sparseOutOfOrder: return Array(sparse.prefix(3)) + sparse[6..<9] + sparse[3..<6] + sparse.dropFirst(9)
            case .sparseIndexOutOfRange: return header + [1, 0x40, 0x00, 1]
            case .sparseRegisterZero: return header + [1, 0x00, 0x05, 0]
            }
        }
    }
}
