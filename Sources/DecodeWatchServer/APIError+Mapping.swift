import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchZlib
import Hummingbird
import NIOHTTP1

/// The one place where core, storage and compression errors become HTTP statuses.
extension APIError {
    static func from(_ error: BatchError) -> APIError {
        switch error.code {
        case .tooManyReports: return APIError(.contentTooLarge, "too_many_reports", error.message)
        case .invalidJSON: return APIError(.badRequest, "invalid_json", error.message)
        default: return APIError(.badRequest, "invalid_batch", error.message)
        }
    }

    static func from(_ error: ZlibError, limits: IngestLimits, encoding: String) -> APIError {
        switch error.code {
        case .tooLarge:
            return APIError(
                .contentTooLarge, "inflated_body_too_large",
                "The body inflates to more than \(limits.maxInflatedBytes) bytes; send fewer reports per batch.")
        case .ratioExceeded:
            return APIError(
                .contentTooLarge, "inflation_ratio_too_high",
                "The body inflates more than \(limits.maxInflationRatio):1; such bodies are refused as decompression bombs."
            )
        default:
            return APIError(
                .badRequest, "invalid_encoding",
                "The body is not valid \(encoding) data (\(error.detail)); compress the whole JSON batch as one stream."
            )
        }
    }

    static func from(_ error: StoreError, retryAfter: Int) -> APIError {
        switch error.code {
        case .notFound: return APIError(.notFound, "not_found", error.message)
        case .conflict: return APIError(.conflict, "group_conflict", error.message)
        case .ambiguous: return APIError(.conflict, "ambiguous_group", error.message)
        default:
            return APIError(
                .serviceUnavailable, "storage_unavailable",
                "Storage is unavailable, nothing was stored; retry after \(retryAfter) seconds.", retryAfter: retryAfter
            )
        }
    }

    static func from(_ error: QueryError) -> APIError {
        APIError(.badRequest, "invalid_query", error.message)
    }

    /// Broken HTTP framing: the client's request cannot be read as sent.
    static func invalidFraming(_ error: HTTPParserError) -> APIError {
        APIError(
            .badRequest, "invalid_http",
            "The request's HTTP framing is broken (\(error)); check its Content-Length or chunked encoding.")
    }
}
