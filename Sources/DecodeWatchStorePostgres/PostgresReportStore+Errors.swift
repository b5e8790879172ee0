import DecodeWatchStore
import PostgresNIO

extension PostgresReportStore {
    /// A PostgreSQL or pool failure as ``StoreError`` `unavailable`: the server answers 503 with
    /// Retry-After, and nothing was committed.
    ///
    /// Messages name the server by ``PostgresStoreConfiguration/redactedURL`` and quote only the
    /// server's own message and SQLSTATE, never a query's arguments or the password.
    func describe(_ error: any Error) -> StoreError {
        Self.describe(error, server: configuration.redactedURL)
    }

    /// ``describe(_:)`` for the server at `server` (a ``PostgresStoreConfiguration/redactedURL``).
    static func describe(_ error: any Error, server: String) -> StoreError {
        if let error = error as? PostgresTransactionError {
            return describe(
                error.closureError ?? error.commitError ?? error.beginError ?? error.rollbackError ?? error,
                server: server)
        }
        if let error = error as? PSQLError {
            switch error.code {
            case .server:
                let state = error.serverInfo?[.sqlState] ?? "?"
                let message = error.serverInfo?[.message] ?? "no message"
                if ["40001", "40P01"].contains(state) {
                    return StoreError(
                        .unavailable,
                        "PostgreSQL aborted the transaction to resolve a conflict with another writer "
                            + "(SQLSTATE \(state)); nothing was stored, retry.")
                }
                return StoreError(.unavailable, "PostgreSQL at \(server) refused: \(message) (SQLSTATE \(state)).")
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .sslUnsupported,
                .failedToAddSSLHandler, .uncleanShutdown:
                let cause = error.underlying.map { ": \($0)" } ?? ""
                return StoreError(.unavailable, "Cannot reach PostgreSQL at \(server) (\(error.code))\(cause).")
            default:
                return StoreError(.unavailable, "PostgreSQL at \(server) failed (\(error.code)).")
            }
        }
        if error is ClosedConnectionError {
            return StoreError(.unavailable, "Cannot reach PostgreSQL at \(server) (the connection was closed).")
        }
        if error is PostgresDecodingError {
            return StoreError(.unavailable, "PostgreSQL at \(server) returned a value of an unexpected type.")
        }
        // The pool's own errors (e.g. it gave up connecting after repeated failures) land here.
        return StoreError(.unavailable, "Cannot reach PostgreSQL at \(server): \(error).")
    }
}

/// A pooled connection was closed before the transaction began on it, or while an operation waited for an answer
/// on it.
struct ClosedConnectionError: Error {}
