import DecodeWatchZlib
import Foundation
import Testing

@Suite("Bounded zlib")
struct ZlibTests {
    let text = Data(String(repeating: "{\"title\":\"Hello, world\"}", count: 2000).utf8)

    @Test("zlib and gzip round-trip", arguments: [Zlib.Format.zlib, .gzip])
    func roundTrip(format: Zlib.Format) throws {
        let compressed = try Zlib.compress(text, format: format)
        #expect(compressed.count < text.count / 10)
        #expect(try Zlib.decompress(compressed, format: format) == text)
    }

    @Test("output over the size limit is refused")
    func sizeLimit() throws {
        let compressed = try Zlib.compress(text)
        #expect(throws: ZlibError.self) {
            try Zlib.decompress(compressed, limits: InflateLimits(maxBytes: text.count - 1, maxRatio: 10_000))
        }
        #expect(try Zlib.decompress(compressed, limits: InflateLimits(maxBytes: text.count, maxRatio: 10_000)) == text)
    }

    @Test("a ratio over the limit is refused only above the minimum size")
    func ratioLimit() throws {
        let zeros = try Zlib.compress(Data(count: 1 << 20))
        do {
            _ = try Zlib.decompress(zeros, limits: InflateLimits(maxRatio: 100, ratioCheckMinimumBytes: 64 << 10))
            Issue.record("expected a ratio error")
        } catch {
            #expect(error.code == .ratioExceeded)
        }
        #expect(
            try Zlib.decompress(zeros, limits: InflateLimits(maxRatio: 100, ratioCheckMinimumBytes: 2 << 20)).count == 1
                << 20)
    }

    @Test("truncated, corrupt, trailing and wrongly framed data are errors, not partial output")
    func badStreams() throws {
        let compressed = try Zlib.compress(text)
        let cases: [(Data, Zlib.Format, ZlibError.Code)] = [
            (compressed.prefix(compressed.count / 2), .zlib, .truncated),
            (Data(), .zlib, .truncated),
            (compressed + Data([0x00]), .zlib, .trailingData),
            (Data("hello world".utf8), .zlib, .corrupt),
            (compressed, .gzip, .corrupt),
        ]
        for (data, format, code) in cases {
            do {
                _ = try Zlib.decompress(Data(data), format: format)
                Issue.record("expected \(code)")
            } catch {
                #expect(error.code == code)
            }
        }
    }
}
