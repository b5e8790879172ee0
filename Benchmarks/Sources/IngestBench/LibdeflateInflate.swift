import CLibdeflate
import DecodeWatchCore
import Foundation

/// Inflates a zlib-wrapped body (HTTP `deflate`) with libdeflate under the collector's limits, the way the
/// collector's zlib inflate (`IngestPipeline.inflate`) does it: the output goes into memory that is not cleared first
/// and is handed to the returned `Data` without a copy, starting at the same capacity.
///
/// libdeflate inflates a whole buffer at once and cannot stop part way, so a body larger than the capacity is
/// inflated again from the start into twice the room, up to one byte past the limit.
enum LibdeflateInflate {
    /// Why a body was not inflated.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong, in words.
        var description: String
    }

    /// The inflated body.
    /// - Parameters:
    ///   - body: the zlib-wrapped deflate body, as received.
    ///   - limits: the collector's limits: the largest inflated size and the largest ratio.
    /// - Throws: ``Failure`` when the body is not zlib-wrapped deflate or inflates past a limit.
    static func inflate(_ body: Data, limits: IngestLimits) throws(Failure) -> Data {
        guard let decompressor = libdeflate_alloc_decompressor() else { throw Failure(description: "out of memory") }
        defer { libdeflate_free_decompressor(decompressor) }
        // The starting capacity of the collector's zlib inflate (DecodeWatchZlib's Zlib.decompress).
        var capacity = min(max(body.count * 4, 64 << 10), limits.maxInflatedBytes + 1)
        while true {
            guard let output = malloc(capacity) else { throw Failure(description: "out of memory") }
            var produced = 0
            let result = body.withUnsafeBytes { input in
                libdeflate_zlib_decompress(
                    decompressor, input.baseAddress, input.count, output, capacity, &produced)
            }
            switch result {
            case LIBDEFLATE_SUCCESS:
                if produced > limits.ratioCheckMinimumBytes, produced > body.count * limits.maxInflationRatio {
                    free(output)
                    throw Failure(description: "inflates more than \(limits.maxInflationRatio) times its size")
                }
                return Data(bytesNoCopy: output, count: produced, deallocator: .free)
            case LIBDEFLATE_INSUFFICIENT_SPACE where capacity <= limits.maxInflatedBytes:
                free(output)
                capacity = min(capacity * 2, limits.maxInflatedBytes + 1)
            case LIBDEFLATE_INSUFFICIENT_SPACE:
                free(output)
                throw Failure(description: "inflates to more than \(limits.maxInflatedBytes) bytes")
            default:
                free(output)
                throw Failure(description: "not zlib-wrapped deflate (libdeflate result \(result.rawValue))")
            }
        }
    }
}
