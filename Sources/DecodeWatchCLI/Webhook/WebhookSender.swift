import DecodeWatchCore
import DecodeWatchServer
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Posts JSON to a webhook (Slack-compatible `{"text": …}` or any JSON document), retrying with backoff;
/// the digest and the alerts both deliver through it.
///
/// Retried: connection failures, timeouts, 408, 429 and 5xx, waiting `initialDelay`, then twice as
/// long each time (or the server's `Retry-After`, up to a minute). Other answers are final: a 4xx
/// means the URL or payload is wrong and retrying cannot help. With `attempts`, `timeout` and the
/// doubling delays, one delivery takes a bounded time.
struct WebhookSender: Sendable {
    /// The webhook URL. A secret: errors and logs show ``redactedURL`` only.
    var url: URL
    /// Most attempts, the first included.
    var attempts = 4
    /// The wait after the first failure; doubled after each.
    var initialDelay: TimeInterval = 2
    /// Time allowed for one request.
    var timeout: TimeInterval = 15

    /// The URL without its secret parts, for logs and errors.
    var redactedURL: String { AlertText.redacted(url.absoluteString) }

    /// The body posted for a text, escaped for Slack.
    static func payload(text: String) -> Data {
        let body = ["text": SlackText.escaped(text)]
        return (try? JSONSerialization.data(withJSONObject: body, options: [.withoutEscapingSlashes])) ?? Data()
    }

    /// Posts `{"text": text}`, escaped for Slack, until it is accepted or the attempts run out.
    /// - Returns: how many attempts it took.
    /// - Throws: ``WebhookDeliveryError`` naming the last failure.
    func send(text: String) async throws -> Int {
        try await send(Self.payload(text: text), what: "the digest")
    }

    /// Posts a JSON body until it is accepted or the attempts run out.
    /// - Parameters:
    ///   - body: the JSON body.
    ///   - what: what is sent, for errors: "the digest", "the alert".
    ///   - onRetry: told each failed attempt that will be retried, with its number and problem.
    /// - Returns: how many attempts it took.
    /// - Throws: ``WebhookDeliveryError`` naming the last failure.
    func send(_ body: Data, what: String, onRetry: @Sendable (Int, String) -> Void = { _, _ in }) async throws -> Int {
        var delay = initialDelay
        var lastProblem = ""
        for attempt in 1...max(1, attempts) {
            let outcome = await post(body)
            switch outcome {
            case .accepted:
                return attempt
            case .rejected(let problem):
                throw WebhookDeliveryError(
                    "The webhook \(redactedURL) refused \(what) (\(problem)); check the webhook URL. Not retried.",
                    attempts: attempt)
            case .retry(let problem, let retryAfter):
                lastProblem = problem
                guard attempt < attempts else { break }
                onRetry(attempt, problem)
                let wait = min(60, retryAfter ?? delay)
                try await Task.sleep(nanoseconds: UInt64(max(0, wait) * 1_000_000_000))
                delay *= 2
            }
        }
        throw WebhookDeliveryError(
            "The webhook \(redactedURL) did not accept \(what) after \(attempts) attempts (last: \(lastProblem)); it will be retried on the next run.",
            attempts: attempts)
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
        request.setValue("decodewatch", forHTTPHeaderField: "User-Agent")
        request.httpBody = body
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        return await withCheckedContinuation { continuation in
            session.dataTask(with: request) { _, response, error in
                if let error {
                    // The error's text may quote the URL; say only what kind of failure it was.
                    continuation.resume(returning: .retry(error.requestProblem, retryAfter: nil))
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

/// A webhook that did not accept what was posted, with one line a person can act on.
struct WebhookDeliveryError: Error, CustomStringConvertible {
    let message: String
    /// How many attempts were made.
    let attempts: Int
    init(_ message: String, attempts: Int) {
        self.message = message
        self.attempts = attempts
    }
    var description: String { message }
}

/// A digest that could not be delivered, with one line a person can act on.
struct DigestDeliveryError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
