import DecodeWatchCore
import DecodeWatchStore
import Hummingbird
import Logging
import NIOHTTP1

/// Turns every failure into the JSON error body of docs/wire-format.md#errors, so no client ever sees an empty 500.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let retryAfter: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as StoreError {
            throw APIError.from(error, retryAfter: retryAfter)
        } catch let error as QueryError {
            throw APIError.from(error)
        } catch let error as HTTPParserError {
            throw APIError.invalidFraming(error)
        } catch let error as HTTPError {
            throw APIError(
                error.status, Self.code(for: error.status), error.body ?? Self.message(for: error.status, request))
        } catch let error as HTTPResponseError {
            throw APIError(error.status, Self.code(for: error.status), Self.message(for: error.status, request))
        } catch {
            context.logger.error("Request failed", metadata: ["error": "\(error)", "http.path": "\(request.uri.path)"])
            throw APIError(
                .internalServerError, "internal_error", "The collector failed unexpectedly; the failure is logged.")
        }
    }

    static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: return "not_found"
        case .methodNotAllowed: return "method_not_allowed"
        case .contentTooLarge: return "body_too_large"
        case .unsupportedMediaType: return "unsupported_media_type"
        case .serviceUnavailable: return "unavailable"
        default: return status.code < 500 ? "bad_request" : "internal_error"
        }
    }

    static func message(for status: HTTPResponse.Status, _ request: Request) -> String {
        switch status {
        case .notFound: return "No endpoint \(request.method) \(request.uri.path); see schemas/openapi.yaml."
        case .methodNotAllowed: return "\(request.method) is not allowed on \(request.uri.path)."
        default: return "\(status.reasonPhrase)."
        }
    }
}
