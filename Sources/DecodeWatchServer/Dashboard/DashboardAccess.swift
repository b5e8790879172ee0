import DecodeWatchStore
import Foundation
import Hummingbird

/// Who may see the dashboard, and the cookies that carry it between pages.
///
/// Once a read token exists, a viewer signs in with one: it is checked like a bearer token and kept in
/// an HttpOnly, SameSite=Strict cookie (Secure behind TLS), so a revoked token stops working at the next
/// page. Every form carries the value of a second SameSite=Strict cookie (double-submit CSRF token), so
/// another site can neither read the pages nor post the forms. Without read tokens the dashboard is as
/// open as the query API.
struct DashboardAccess: Sendable {
    let verifier: CredentialVerifier

    /// The cookie holding the read token.
    static let sessionCookie = "dw_session"
    /// The cookie holding the CSRF token the forms repeat.
    static let csrfCookie = "dw_csrf"
    /// How long a sign-in lasts.
    static let sessionSeconds = 12 * 3600

    /// Whether the request may read: no read token exists, or it carries a valid one (cookie or bearer).
    func allows(_ request: Request) async throws -> Bool {
        guard try await verifier.isRequired(.read) else { return true }
        guard let secret = request.cookies[Self.sessionCookie]?.value ?? request.bearerToken else { return false }
        return try await verifier.verify(secret: secret, kind: .read) != nil
    }

    /// Whether sign-in is needed at all, to show or hide the sign-out button.
    func signInRequired() async throws -> Bool { try await verifier.isRequired(.read) }

    /// Whether a secret is a valid read token.
    func isReadToken(_ secret: String) async throws -> Bool {
        try await verifier.verify(secret: secret, kind: .read) != nil
    }

    /// The CSRF token of the request's cookie, or a new one to set (call once per request).
    static func csrfToken(of request: Request) -> String {
        if let value = request.cookies[csrfCookie]?.value, value.count == 32 { return value }
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
            .joined()
    }

    /// Whether a posted form repeats the request's CSRF cookie.
    static func csrfMatches(_ request: Request, form: FormValues) -> Bool {
        guard let cookie = request.cookies[csrfCookie]?.value, cookie.count == 32, let posted = form["csrf"] else {
            return false
        }
        return cookie.utf8.elementsEqual(posted.utf8)
    }

    /// Whether the request reached the collector over TLS: the collector speaks plain HTTP, so a TLS
    /// proxy in front says so with `X-Forwarded-Proto: https`.
    static func isSecure(_ request: Request) -> Bool {
        request.headers[HTTPFields.Element.Name("X-Forwarded-Proto")!]?.lowercased().hasPrefix("https") == true
    }

    /// A cookie of the dashboard: HttpOnly, SameSite=Strict, Secure behind TLS.
    static func cookie(_ name: String, _ value: String, maxAge: Int, request: Request) -> Cookie {
        Cookie(
            name: name, value: value, maxAge: maxAge, path: "/", secure: isSecure(request), httpOnly: true,
            sameSite: .strict)
    }
}
