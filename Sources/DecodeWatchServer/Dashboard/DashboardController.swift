import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Hummingbird
import NIOCore

/// The dashboard: `GET /` (breaking fields), `GET /groups/{group}`, the action form posts, and sign-in.
///
/// Pages are rendered on the server from Mustache templates and work without JavaScript; every
/// action is a plain form post answered with a redirect (post/redirect/get).
struct DashboardController<Context: RequestContext>: Sendable {
    let store: any FieldReads & GroupActionStore & ContractStore
    let access: DashboardAccess
    let templates: DashboardTemplates
    let list: FieldListPage
    let groupPage: GroupPage
    /// Opens groups' GitHub issues; `nil` when the collector was started without a repository, and no button shows.
    let issues: GroupIssueOpener?

    init(
        store: any FieldReads & GroupActionStore & ContractStore, sessions: any SessionStore,
        verifier: CredentialVerifier, normalizer: EndpointNormalizer, issues: GroupIssueOpener? = nil
    ) {
        self.store = store
        self.issues = issues
        access = DashboardAccess(verifier: verifier, sessions: sessions)
        templates = DashboardTemplates.shared
        list = FieldListPage(store: store, normalizer: normalizer)
        groupPage = GroupPage(store: store)
    }

    func addRoutes(to router: some RouterMethods<Context>) {
        router.get("/", use: fields)
        router.get("/groups/:group", use: group)
        router.post("/groups/:group/actions", use: act)
        router.post("/groups/:group/issue", use: openIssue)
        router.get("/login", use: loginForm)
        router.post("/login", use: login)
        router.post("/logout", use: logout)
    }

    @Sendable func fields(request: Request, context: Context) async throws -> Response {
        guard try await access.check(request) != nil else { return signInRedirect(request) }
        var view = try await list.view(FieldListPage.Request(FormValues(query: request)), now: Date())
        view.page = try await chrome(request)
        return try render(
            "list", view, csrf: view.page.csrf, request: request, status: view.error == nil ? .ok : .badRequest)
    }

    @Sendable func group(request: Request, context: Context) async throws -> Response {
        guard let allowed = try await access.check(request) else { return signInRedirect(request) }
        let id = try context.parameters.require("group")
        let values = FormValues(query: request)
        let window = values.nonEmpty("window").flatMap(DashboardWindow.init(rawValue:)) ?? .day
        // The list's environment filter, kept in the links back to it; a name that is not one is left out.
        let environment = values.nonEmpty("environment").flatMap { EnvironmentName.isValid($0) ? $0 : nil }
        guard var view = try await groupPage.view(group: id, window: window, environment: environment, now: Date())
        else {
            return try message(
                "No such group", "No group has the id \u{201C}\(id)\u{201D}.", request: request, status: .notFound)
        }
        view.page = try await chrome(request)
        view.offerDecisions(to: allowed)
        view.offerIssue(to: allowed, configured: issues != nil)
        return try render("group", view, csrf: view.page.csrf, request: request)
    }

    @Sendable func act(request: Request, context: Context) async throws -> Response {
        try await withGroupForm(request, context: context) { allowed, form, id in
            do {
                let action = try Self.action(form)
                try allowed.require(action)
                try await store.apply(action, to: id, at: Date(), by: allowed.actor)
            } catch let error as QueryError {
                return try message("Cannot do that", error.message, request: request, status: .badRequest)
            } catch let error as APIError where error.status == .forbidden {
                return try message("Not allowed", error.message, request: request, status: .forbidden)
            }
            let back = form["return"].flatMap { $0.hasPrefix("/") && !$0.hasPrefix("//") ? $0 : nil }
            return .redirect(to: back ?? "/groups/\(id)")
        }
    }

    /// The "Open a GitHub issue" button: opens the group's issue once, then shows the group's page, which links it.
    /// A refusal by GitHub is shown as its sentence.
    @Sendable func openIssue(request: Request, context: Context) async throws -> Response {
        try await withGroupForm(request, context: context) { allowed, _, id in
            do {
                try allowed.require(GroupIssueOpener.requiredScope, for: GroupIssueOpener.activity)
                guard let issues else {
                    return try message(
                        "No GitHub repository", GroupIssueOpener.notConfigured, request: request, status: .notFound)
                }
                _ = try await issues.open(group: id, by: allowed.actor)
            } catch let error as APIError where error.status == .forbidden {
                return try message("Not allowed", error.message, request: request, status: .forbidden)
            } catch let error as GitHubError {
                return try message("GitHub refused the issue", error.message, request: request, status: .badGateway)
            }
            return .redirect(to: "/groups/\(id)")
        }
    }

    /// Runs a group page's form post for a viewer who may read, once its CSRF token matches; otherwise answers the
    /// sign-in redirect or "Form expired".
    /// - Parameter body: gets what the viewer may do, the form and the group id from the path.
    private func withGroupForm(
        _ request: Request, context: Context,
        _ body: (RequestAccess, FormValues, String) async throws -> Response
    ) async throws -> Response {
        guard let allowed = try await access.check(request) else { return signInRedirect(request) }
        let form = try await Self.form(request, context: context)
        guard DashboardAccess.csrfMatches(request, form: form) else {
            return try message(
                "Form expired", "The form's security token did not match; reload the page and try again.",
                request: request, status: .forbidden)
        }
        return try await body(allowed, form, try context.parameters.require("group"))
    }

    /// The decision a posted form asks for.
    private static func action(_ form: FormValues) throws(QueryError) -> GroupAction {
        switch form["action"] {
        case "resolve": return .resolve
        case "resolve-in-next-version": return .resolveInNextVersion
        case "unmute": return .unmute
        case "mute": return .mute(try GroupMute.parse(period: form.nonEmpty("for"), count: form.nonEmpty("count")))
        default:
            throw QueryError(
                "action '\(form["action"] ?? "")' is unknown; use resolve, resolve-in-next-version, mute or unmute.")
        }
    }

    @Sendable func loginForm(request: Request, context: Context) async throws -> Response {
        let next = Self.localPath(FormValues(query: request)["next"])
        let page = try await chrome(request)
        return try render("login", LoginView(next: next, page: page), csrf: page.csrf, request: request)
    }

    @Sendable func login(request: Request, context: Context) async throws -> Response {
        let form = try await Self.form(request, context: context)
        let next = Self.localPath(form["next"])
        guard DashboardAccess.csrfMatches(request, form: form) else {
            return try message(
                "Form expired", "The form's security token did not match; reload the page and try again.",
                request: request, status: .forbidden)
        }
        let token = (form["token"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, let session = try await access.signIn(token: token) else {
            let page = try await chrome(request)
            var view = LoginView(next: next, page: page)
            view.error = "That read token is unknown or revoked; check it with `decodewatch tokens list`."
            return try render("login", view, csrf: page.csrf, request: request, status: .unauthorized)
        }
        var response = Response.redirect(to: next)
        response.setCookie(
            DashboardAccess.cookie(
                DashboardAccess.sessionCookie, session, maxAge: DashboardAccess.sessionSeconds, request: request))
        return response
    }

    @Sendable func logout(request: Request, context: Context) async throws -> Response {
        let form = try await Self.form(request, context: context)
        guard DashboardAccess.csrfMatches(request, form: form) else {
            return try message(
                "Form expired", "The form's security token did not match; reload the page and try again.",
                request: request, status: .forbidden)
        }
        try await access.signOut(request)
        var response = Response.redirect(to: "/login")
        response.setCookie(DashboardAccess.cookie(DashboardAccess.sessionCookie, "", maxAge: 0, request: request))
        return response
    }

    private func signInRedirect(_ request: Request) -> Response {
        let path = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        return .redirect(to: "/login?next=" + DashboardPage.queryEscape(path))
    }

    private func chrome(_ request: Request) async throws -> DashboardPage.Chrome {
        let hasSession = request.cookies[DashboardAccess.sessionCookie] != nil
        return DashboardPage.Chrome(
            csrf: DashboardAccess.csrfToken(of: request),
            signedIn: hasSession ? try await access.signInRequired() : false)
    }

    private func message(_ title: String, _ text: String, request: Request, status: HTTPResponse.Status) throws
        -> Response
    {
        let csrf = DashboardAccess.csrfToken(of: request)
        return try render(
            "message", MessageView(title: title, text: text), csrf: csrf, request: request, status: status)
    }

    /// A rendered page, setting the CSRF cookie its forms repeat when the request did not carry it.
    private func render(
        _ template: String, _ view: Any, csrf: String, request: Request, status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let html: String
        do {
            html = try templates.render(view, template)
        } catch {
            throw APIError(.serviceUnavailable, "dashboard_unavailable", error.message)
        }
        var response = Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                HTTPFields.Element.Name("Content-Security-Policy")!:
                    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; "
                    + "frame-ancestors 'none'; base-uri 'none'",
                HTTPFields.Element.Name("X-Content-Type-Options")!: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html)))
        if request.cookies[DashboardAccess.csrfCookie]?.value != csrf {
            response.setCookie(
                DashboardAccess.cookie(
                    DashboardAccess.csrfCookie, csrf, maxAge: DashboardAccess.sessionSeconds, request: request))
        }
        return response
    }

    /// The fields of an `application/x-www-form-urlencoded` body (at most 16 KiB).
    private static func form(_ request: Request, context: Context) async throws -> FormValues {
        var request = request
        let body = try await request.collectBody(upTo: 16_384)
        return FormValues(Substring(String(buffer: body)))
    }

    /// A path on this site to return to; anything else (another host, `//host`) becomes `/`.
    private static func localPath(_ text: String?) -> String {
        guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.hasPrefix("/\\") else { return "/" }
        return text
    }
}

/// What the sign-in template renders.
struct LoginView: Sendable {
    let title = "Sign in"
    let next: String
    var error: String?
    var page: DashboardPage.Chrome

    init(next: String, page: DashboardPage.Chrome) {
        self.next = next
        self.page = page
    }
}

/// What the message template renders.
struct MessageView: Sendable {
    let title: String
    let text: String
    var page = DashboardPage.Chrome()
}
