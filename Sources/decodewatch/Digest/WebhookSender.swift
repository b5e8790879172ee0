import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Posts a digest to a Slack-compatible incoming webhook (`{"text": …}`), retrying with backoff.
///
/// Retried: connection failures, timeouts, 408, 429 and 5xx, waiting `initialDelay`, then twice as
/// long each time (or the server's `Retry-After`, up to a minute). Other answers are final: a 4xx
/// means the URL or payload is wrong and retrying cannot help.
struct WebhookSender: Sendable {
    /// The webhook URL.
    var url: URL
    /// Most attempts, the first included.
    var attempts = 4
    /// The wait after the first failure; doubled after each.
    var initialDelay: TimeInterval = 2
    /// Time allowed for one request.
    var timeout: TimeInterval = 15

    /// The body posted for a text, escaped for Slack.
    static func payload(text: String) -> Data {
        let body = ["text": slackEscaped(text)]
        return (try? JSONSerialization.data(withJSONObject: body, options: [.withoutEscapingSlashes])) ?? Data()
    }

    /// Text with Slack's control characters escaped (`&`, `<`, `>`), so no app-controlled string in it
    /// (an app version, an endpoint, a path) can mention a channel (`<!channel>`) or forge a link.
    static func slackEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Posts `{"text": text}` until it is accepted or the attempts run out.
    /// - Returns: how many attempts it took.
    /// - Throws: ``DigestDeliveryError`` naming the last failure.
    func send(text: String) async throws -> Int {
        let body = Self.payload(text: text)
        var delay = initialDelay
        var lastProblem = ""
        for attempt in 1...max(1, attempts) {
            let outcome = await post(body)
            switch outcome {
            case .accepted:
                return attempt
            case .rejected(let problem):
                throw DigestDeliveryError("The webhook refused the digest (\(problem)); check --webhook. Not retried.")
            case .retry(let problem, let retryAfter):
                lastProblem = problem
                guard attempt < attempts else { break }
                let wait = min(60, retryAfter ?? delay)
                try await Task.sleep(nanoseconds: UInt64(max(0, wait) * 1_000_000_000))
                delay *= 2
            }
        }
        throw DigestDeliveryError(
            "The webhook did not accept the digest after \(attempts) attempts (last: \(lastProblem)); it will be retried on the next run."
        )
    }

    enum Outcome: Sendable {
        case accepted
        case rejected(String)
        case retry(String, retryAfter: TimeInterval?)
    }

    private func post(_ body: Data) async -> Outcome {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
        request.setValue("decodewatch-digest", forHTTPHeaderField: "User-Agent")
        request.httpBody = body
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        return await withCheckedContinuation { continuation in
            session.dataTask(with: request) { _, response, error in
                if let error {
                    continuation.resume(returning: .retry(error.localizedDescription, retryAfter: nil))
                    return
                }
                guard let http = response as? HTTPURLResponse else {
                    continuation.resume(returning: .retry("no HTTP response", retryAfter: nil))
                    return
                }
                let status = http.statusCode
                switch status {
                case 200..<300:
                    continuation.resume(returning: .accepted)
                case 408, 429, 500...599:
                    let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap(TimeInterval.init)
                    continuation.resume(returning: .retry("HTTP \(status)", retryAfter: retryAfter))
                default:
                    continuation.resume(returning: .rejected("HTTP \(status)"))
                }
            }.resume()
        }
    }
}

/// A digest that could not be delivered, with one line a person can act on.
struct DigestDeliveryError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
