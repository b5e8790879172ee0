import DecodeWatchCore
import DecodeWatchZlib
import Foundation
import Hummingbird
import NIOCore

/// Reads an ingest body within the limits of SPEC §1: media type and encoding first, then at most
/// the compressed limit from the socket, then inflation that stops as soon as a limit is passed.
enum IngestBody {
    static func read(_ request: Request, limits: IngestLimits) async throws -> Data {
        try checkContentType(request.headers[.contentType])
        let format = try encoding(of: request.headers[.contentEncoding])
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limits.maxCompressedBytes {
            throw tooLarge(limits)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limits.maxCompressedBytes)
        } catch is NIOTooManyBytesError {
            throw tooLarge(limits)
        }
        let data = Data(buffer.readableBytesView)
        guard let format else { return data }
        do {
            return try Zlib.decompress(
                data, format: format,
                limits: InflateLimits(
                    maxBytes: limits.maxInflatedBytes, maxRatio: limits.maxInflationRatio,
                    ratioCheckMinimumBytes: limits.ratioCheckMinimumBytes))
        } catch {
            throw APIError.from(error, limits: limits, encoding: format == .zlib ? "deflate (zlib)" : "gzip")
        }
    }

    private static func checkContentType(_ value: String?) throws {
        let parts = (value ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let charsetOK = parts.dropFirst().allSatisfy { parameter in
            !parameter.hasPrefix("charset=") || ["charset=utf-8", "charset=\"utf-8\""].contains(parameter)
        }
        guard parts.first == "application/json", charsetOK else {
            throw APIError(
                .unsupportedMediaType, "unsupported_media_type",
                "Content-Type must be application/json (UTF-8), got '\(value ?? "none")'.")
        }
    }

    /// The compression format of a `Content-Encoding`, or `nil` for an identity body.
    private static func encoding(of value: String?) throws -> Zlib.Format? {
        switch value?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "", "identity": return nil
        case "deflate": return .zlib
        case "gzip", "x-gzip": return .gzip
        default:
            throw APIError(
                .unsupportedMediaType, "unsupported_encoding",
                "Content-Encoding '\(value ?? "")' is not supported; use deflate (zlib), gzip or identity.")
        }
    }

    private static func tooLarge(_ limits: IngestLimits) -> APIError {
        APIError(
            .contentTooLarge, "body_too_large",
            "The request body is larger than \(limits.maxCompressedBytes) bytes; send smaller batches.")
    }
}
