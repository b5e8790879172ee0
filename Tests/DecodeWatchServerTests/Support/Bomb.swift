import CZlib
import Foundation

/// Builds a zlib stream of zeros without ever holding the inflated bytes: a decompression bomb.
enum Bomb {
    static func zeros(inflatedSize: Int) -> Data {
        var stream = z_stream()
        deflateInit_(&stream, 9, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        let chunk = [UInt8](repeating: 0, count: 1 << 20)
        var output = Data()
        var outBuffer = [UInt8](repeating: 0, count: 1 << 16)
        var remaining = inflatedSize
        repeat {
            let size = min(chunk.count, remaining)
            remaining -= size
            let flush = remaining == 0 ? Z_FINISH : Z_NO_FLUSH
            chunk.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(size)
                repeat {
                    outBuffer.withUnsafeMutableBufferPointer { out in
                        stream.next_out = out.baseAddress
                        stream.avail_out = uInt(out.count)
                        deflate(&stream, flush)
                        output.append(out.baseAddress!, count: out.count - Int(stream.avail_out))
                    }
                } while stream.avail_out == 0
            }
        } while remaining > 0
        return output
    }
}
