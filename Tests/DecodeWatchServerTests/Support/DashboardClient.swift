import DecodeWatchTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A browser-like client of the dashboard that keeps its own cookies and never follows redirects,
/// so tests see every `Set-Cookie` and `Location`.
final class DashboardClient: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    let baseURL: URL
    private let lock = NSLock()
    private var jar: [String: String] = [:]
    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    init(_ baseURL: URL) { self.baseURL = baseURL }

    deinit { session.invalidateAndCancel() }

    /// The cookies kept so far.
    var cookies: [String: String] { lock.withLock { jar } }

    /// Keeps a cookie as if a page had set it: a copied cookie replayed from elsewhere.
    func setCookie(_ name: String, _ value: String) { lock.withLock { jar[name] = value } }

    /// Expects the list asked with `query` refused with 400, its page saying `problem`.
    func expectListRefused(
        _ query: String, saying problem: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let answer = try await send("GET", "/?" + query)
        #expect(answer.status == 400, sourceLocation: sourceLocation)
        #expect(answer.text.contains(problem), "\(answer.text)", sourceLocation: sourceLocation)
    }

    /// Sends a request with the kept cookies, keeps the cookies it sets, and returns the answer.
    func send(_ method: String, _ path: String, form: [String: String]? = nil, headers: [String: String] = [:])
        async throws -> HTTPAnswer
    {
        var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!)
        request.httpMethod = method
        let cookieHeader = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        if !cookieHeader.isEmpty { request.setValue(cookieHeader, forHTTPHeaderField: "Cookie") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let form {
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(Self.encode(form).utf8)
        }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        let answer = HTTPAnswer(
            status: http.statusCode, headers: http.allHeaderFields as? [String: String] ?? [:], body: data)
        for line in answer.setCookies {
            let pair = line.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1)
            let name = String(pair[0]).trimmingCharacters(in: .whitespaces)
            let value = pair.count > 1 ? String(pair[1]) : ""
            lock.withLock { if value.isEmpty { jar[name] = nil } else { jar[name] = value } }
        }
        return answer
    }

    /// The CSRF token of the first form of a page.
    static func csrf(in html: String) -> String? {
        guard let range = html.range(of: "name=\"csrf\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    /// `a=b&c=d`, with `+` for spaces as browsers encode forms.
    static func encode(_ form: [String: String]) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~ ")
        return form.sorted { $0.key < $1.key }.map { name, value in
            let escaped = (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
                .replacingOccurrences(of: " ", with: "+")
            return "\(name)=\(escaped)"
        }.joined(separator: "&")
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

extension HTTPAnswer {
    /// Every `Set-Cookie` line; Foundation joins several with ", ", which never occurs inside our cookies' values.
    var setCookies: [String] {
        guard let joined = header("Set-Cookie") else { return [] }
        return joined.components(separatedBy: ", ").filter { $0.contains("=") }
    }
}
