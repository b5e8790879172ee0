import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLError {
    /// What went wrong, in words a person can act on (`connection refused`), never quoting the URL, which
    /// may carry a secret. Foundation's own text names neither the cause plainly nor the same way on every
    /// platform, and its code alone (-1004) means nothing to the reader.
    package var problem: String {
        switch code {
        case .cannotConnectToHost: "connection refused"
        case .timedOut: "no answer in time"
        case .cannotFindHost, .dnsLookupFailed: "the host name does not resolve"
        case .notConnectedToInternet: "no network connection"
        case .networkConnectionLost: "the connection was lost"
        case .secureConnectionFailed: "the TLS handshake failed"
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot,
            .serverCertificateNotYetValid:
            "its TLS certificate is not trusted"
        case .badServerResponse: "it did not answer HTTP"
        case .unsupportedURL: "the URL is not one that can be requested"
        default: "network error \(code.rawValue)"
        }
    }
}

extension Error {
    /// The problem of a failed request in words (``URLError/problem``), whatever error type reports it.
    package var requestProblem: String {
        (self as? URLError)?.problem ?? "network error"
    }
}
