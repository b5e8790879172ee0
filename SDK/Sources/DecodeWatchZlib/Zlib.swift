import DecodeWatchCZlib
import Foundation

/// Bounded zlib compression and decompression, for upload batches and ingest bodies.
///
/// A thin layer over the system zlib that adds what an HTTP ingest needs and plain `inflate` does not
/// give: a hard cap on output size and inflation ratio checked while inflating (a decompression bomb
/// never costs more memory than the cap), and errors for truncated streams and trailing bytes.
public enum Zlib {
    /// The container around the deflate data.
    public enum Format: Sendable {
        /// RFC 1950, what HTTP calls `deflate`.
        case zlib
        /// RFC 1952, HTTP `gzip`.
        case gzip

        var windowBits: Int32 { self == .zlib ? MAX_WBITS : MAX_WBITS + 16 }
    }

    /// Compresses data.
    /// - Parameters:
    ///   - data: the bytes to compress.
    ///   - format: zlib (HTTP `deflate`) or gzip.
    ///   - level: 0–9, or -1 for zlib's default.
    /// - Returns: the compressed bytes.
    /// - Throws: ``ZlibError`` when zlib fails (it does not for valid arguments).
    public static func compress(_ data: Data, format: Format = .zlib, level: Int32 = Z_DEFAULT_COMPRESSION)
        throws(ZlibError)
        -> Data
    {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, format.windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw ZlibError(.internal, "deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var output = Data(count: Int(deflateBound(&stream, uLong(data.count))))
        let status: Int32 = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw ZlibError(.internal, "deflate returned \(status)") }
        output.count = Int(stream.total_out)
        return output
    }

    /// Decompresses data, refusing output beyond the given limits as soon as they are passed.
    /// - Parameters:
    ///   - data: the compressed bytes: exactly one complete stream, nothing after it. Any contiguous bytes, so a
    ///     request body is read where it arrived, without a copy.
    ///   - format: zlib (HTTP `deflate`) or gzip.
    ///   - limits: the caps on output size and ratio.
    /// - Returns: the decompressed bytes.
    /// - Throws: ``ZlibError`` with code `corrupt`, `truncated`, `trailingData`, `tooLarge` or `ratioExceeded`.
    public static func decompress(
        _ data: some ContiguousBytes, format: Format = .zlib, limits: InflateLimits = InflateLimits()
    ) throws(ZlibError) -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, format.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ZlibError(.internal, "inflateInit2 failed")
        }
        defer { inflateEnd(&stream) }
        let chunk = 64 << 10
        let compressedCount = data.withUnsafeBytes { $0.count }
        // The output is written into memory that is not cleared first (every byte is overwritten before it is
        // read), and handed over to the returned `Data` without a copy.
        var capacity = min(max(compressedCount * 4, chunk), limits.maxBytes + 1)
        guard var output = malloc(capacity) else { throw ZlibError(.internal, "out of memory") }
        var handedOver = false
        defer { if !handedOver { free(output) } }
        var status: Int32 = Z_OK
        var consumedAll = false
        let failure: ZlibError? = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> ZlibError? in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let produced = Int(stream.total_out)
                if produced == capacity {
                    let grown = min(capacity * 2, limits.maxBytes + chunk)
                    guard let larger = realloc(output, grown) else { return ZlibError(.internal, "out of memory") }
                    output = larger
                    capacity = grown
                }
                stream.next_out = output.assumingMemoryBound(to: Bytef.self) + produced
                stream.avail_out = uInt(capacity - produced)
                status = inflate(&stream, Z_NO_FLUSH)
                let total = Int(stream.total_out)
                if total > limits.maxBytes {
                    return ZlibError(.tooLarge, "inflates to more than \(limits.maxBytes) bytes")
                }
                if total > limits.ratioCheckMinimumBytes, total > compressedCount * limits.maxRatio {
                    return ZlibError(.ratioExceeded, "inflates more than \(limits.maxRatio) times its compressed size")
                }
                switch status {
                case Z_STREAM_END:
                    consumedAll = stream.avail_in == 0
                    return nil
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return ZlibError(.truncated, "the compressed stream ends early")
                case Z_BUF_ERROR:
                    continue
                default:
                    let detail = stream.msg.map { String(cString: $0) } ?? "status \(status)"
                    return ZlibError(.corrupt, detail)
                }
            }
        }
        if let failure { throw failure }
        guard consumedAll else { throw ZlibError(.trailingData, "bytes follow the end of the compressed stream") }
        handedOver = true
        return Data(bytesNoCopy: output, count: Int(stream.total_out), deallocator: .free)
    }
}

/// The caps applied while inflating.
public struct InflateLimits: Sendable, Hashable {
    /// Most bytes of output.
    public var maxBytes: Int
    /// Most output bytes per input byte, checked once output passes ``ratioCheckMinimumBytes``.
    public var maxRatio: Int
    /// Output size below which the ratio is not checked.
    public var ratioCheckMinimumBytes: Int

    /// Creates limits; the defaults are those of docs/wire-format.md#limits (16 MiB, 100:1 above 64 KiB).
    public init(maxBytes: Int = 16 << 20, maxRatio: Int = 100, ratioCheckMinimumBytes: Int = 64 << 10) {
        self.maxBytes = maxBytes
        self.maxRatio = maxRatio
        self.ratioCheckMinimumBytes = ratioCheckMinimumBytes
    }
}

/// A compression failure. A struct with an opaque code so that codes can be added.
public struct ZlibError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Sendable, Hashable {
        let name: String
        /// The data is not a valid stream of the format.
        public static let corrupt = Code(name: "corrupt")
        /// The stream stops before its end.
        public static let truncated = Code(name: "truncated")
        /// Bytes follow the end of the stream.
        public static let trailingData = Code(name: "trailingData")
        /// The output would pass ``InflateLimits/maxBytes``.
        public static let tooLarge = Code(name: "tooLarge")
        /// The output would pass ``InflateLimits/maxRatio``.
        public static let ratioExceeded = Code(name: "ratioExceeded")
        /// zlib itself failed.
        public static let `internal` = Code(name: "internal")
    }

    /// What went wrong.
    public let code: Code
    /// Details, for logs and error messages.
    public let detail: String

    init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code.name): \(detail)" }
}
