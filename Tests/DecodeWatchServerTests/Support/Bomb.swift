import DecodeWatchZlib
import Foundation

/// A decompression bomb: a zlib stream of zeros. Compressing zeros reads pages the system never backs with
/// memory, so even a gigabyte costs only the compressed bytes (about 1 MB).
enum Bomb {
    static func zeros(inflatedSize: Int) -> Data {
        try! Zlib.compress(Data(count: inflatedSize), format: .zlib, level: 9)
    }
}
