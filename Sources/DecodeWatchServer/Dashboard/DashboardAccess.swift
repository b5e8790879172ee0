import DecodeWatchStore
import Foundation
import Hummingbird

/// Who may see the dashboard, and the cookies that carry it between pages.
///
/// Once a read token exists, a viewer signs in with one. The token is checked and never stored in the
/// browser: signing in makes a random session id, whose SHA-256 the store keeps with the token's id
/// (``SessionStore``), and the HttpOnly, SameSite=Strict cookie (Secure behind TLS) holds that id. Signing
/// out deletes the session, so a copied cookie stops working too; revoking the token or the session's
/// expiry (``sessionSeconds``) ends it at the next page. Every form carries the value of a second
/// SameSite=Strict cookie (double-submit CSRF token), so another site can neither read the pages nor post
/// the forms. Without read tokens the dashboard is as open as the query API; with them, a session may take the
/// actions its token's scope allows, and the pages offer only those.
struct DashboardAccess: Sendable {
    let verifier: CredentialVerifier
    let sessions: any SessionStore

    /// The cookie holding the session id.
    static let sessionCookie = "dw_session"
    /// The cookie holding the CSRF token the forms repeat.
    static let csrfCookie = "dw_csrf"
    /// How long a sign-in lasts.
    static let sessionSeconds = 12 * 3600

    /// What the request may do: anything while no read token exists; otherwise what the token of its live
    /// session (cookie) or its read token (`Authorization: Bearer`) allows.
    /// - Returns: `nil` when the request may not even read.
    func check(_ request: Request) async throws -> RequestAccess? {
        guard try await verifier.isRequired(.read) else { return .open }
        let credential: Credential?
        if let session = request.cookies[Self.sessionCookie]?.value, !session.isEmpty {
            credential = try await sessions.sessionCredential(secretHash: CredentialSecret.hash(session), now: Date())
        } else if let secret = request.bearerToken {
            credential = try await verifier.verify(secret: secret, kind: .read)
        } else {
            credential = nil
        }
        return credential.map { .token($0.scope ?? .read, actor: $0.actor) }
    }

    /// Whether sign-in is needed at all, to show or hide the sign-out button.
    func signInRequired() async throws -> Bool { try await verifier.isRequired(.read) }

    /// Signs in with a read token.
    /// - Returns: the new session id for the cookie, or `nil` when the token is unknown or revoked.
    func signIn(token: String) async throws -> String? {
        guard let credential = try await verifier.verify(secret: token, kind: .read) else { return nil }
        let session = Self.randomHex(bytes: 32)
        let now = Date()
        try await sessions.insertSession(
            secretHash: CredentialSecret.hash(session), credentialID: credential.id, at: now,
            expiresAt: now.addingTimeInterval(TimeInterval(Self.sessionSeconds)))
        return session
    }

    /// Ends the request's session, if it has one.
    func signOut(_ request: Request) async throws {
        guard let session = request.cookies[Self.sessionCookie]?.value, !session.isEmpty else { return }
        try await sessions.deleteSession(secretHash: CredentialSecret.hash(session))
    }

    /// The CSRF token of the request's cookie, or a new one to set (call once per request).
    static func csrfToken(of request: Request) -> String {
        if let value = request.cookies[csrfCookie]?.value, value.count == 32 { return value }
        return randomHex(bytes: 16)
    }

    /// `bytes` random bytes from the system's generator, as lowercase hex.
    private static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
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
