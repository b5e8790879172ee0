import DecodeWatchCore
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1

/// Reads an ingest body within the limits of docs/wire-format.md#limits: media type and encoding first, then at most
/// the compressed limit from the socket. ``IngestPipeline`` inflates it, stopping as soon as a limit is passed.
enum IngestBody {
    /// - Returns: the body as received, with its encoding, for ``IngestPipeline`` to inflate within the limits.
    static func read(_ request: Request, limits: IngestLimits, timeout: Duration) async throws -> BatchSource {
        try checkContentType(request.headers[.contentType])
        let encoding = try encoding(of: request.headers[.contentEncoding])
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limits.maxCompressedBytes {
            throw tooLarge(limits)
        }
        let buffer = try await collect(request.body, limits: limits, timeout: timeout)
        return BatchSource(body: Data(buffer.readableBytesView), encoding: encoding)
    }

    /// Reads the whole body, or fails with 408 when it does not arrive in time, 413 when it is too
    /// large, and 400 when its HTTP framing is broken (a wrong Content-Length, bad chunk sizes).
    private static func collect(_ body: RequestBody, limits: IngestLimits, timeout: Duration) async throws -> ByteBuffer
    {
        do {
            return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await body.collect(upTo: limits.maxCompressedBytes) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let buffer = try await group.next()! else {
                    throw APIError(
                        .requestTimeout, "body_timeout",
                        "The request body did not arrive within \(timeout.components.seconds) seconds; "
                            + "check the connection or send smaller batches.")
                }
                return buffer
            }
        } catch is NIOTooManyBytesError {
            throw tooLarge(limits)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPParserError {
            throw APIError.invalidFraming(error)
        } catch {
            throw APIError(
                .badRequest, "invalid_http",
                "The request body could not be read (\(error)); check its Content-Length or chunked framing.")
        }
    }

    private static func checkContentType(_ value: String?) throws {
        // What the SDK sends is accepted without taking the header apart: trimming and lowercasing its parts
        // showed in the collector's profile at full load, once per batch for nothing.
        if value == "application/json" || value == "application/json; charset=utf-8" { return }
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

    /// The encoding a `Content-Encoding` names.
    private static func encoding(of value: String?) throws -> BatchSource.Encoding {
        if value == "deflate" { return .deflate }
        switch value?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "", "identity": return .identity
        case "deflate": return .deflate
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
