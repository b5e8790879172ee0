import Foundation

/// How failed uploads are retried: exponential backoff with jitter, and the server's `Retry-After`.
///
/// A flush retries a batch in place while the wait is short (``maxInlineDelay``), so a brief
/// outage costs one flush; a longer wait is remembered and later flushes only spool until it has
/// passed, so an app that calls ``Reporter/flush()`` never hangs on a server that asked for quiet.
public struct RetryPolicy: Sendable, Hashable {
    /// The wait after the first failure.
    public var baseDelay: TimeInterval
    /// The longest wait between attempts.
    public var maxDelay: TimeInterval
    /// The share of each wait that is random, 0…1, so that many devices do not retry in step.
    public var jitter: Double
    /// Most attempts per batch within one flush.
    public var maxAttemptsPerFlush: Int
    /// Longest wait a flush sleeps through before retrying in place.
    public var maxInlineDelay: TimeInterval
    /// Upper bound on an honoured `Retry-After`, against a server that asks for days.
    public var maxRetryAfter: TimeInterval

    /// Creates a retry policy.
    /// - Parameters:
    ///   - baseDelay: seconds to wait after the first failure; doubled after each further one.
    ///   - maxDelay: the longest backoff in seconds.
    ///   - jitter: the random share of each wait, 0…1.
    ///   - maxAttemptsPerFlush: attempts per batch within one flush.
    ///   - maxInlineDelay: the longest wait a flush sleeps through.
    ///   - maxRetryAfter: the longest `Retry-After` honoured.
    public init(
        baseDelay: TimeInterval = 2, maxDelay: TimeInterval = 600, jitter: Double = 0.5, maxAttemptsPerFlush: Int = 3,
        maxInlineDelay: TimeInterval = 10, maxRetryAfter: TimeInterval = 3600
    ) {
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.maxAttemptsPerFlush = maxAttemptsPerFlush
        self.maxInlineDelay = maxInlineDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// The wait after `failures` consecutive failures (1 or more), with jitter.
    /// - Parameters:
    ///   - failures: consecutive failures so far.
    ///   - retryAfter: the server's `Retry-After` in seconds, which wins when present.
    ///   - random: a number in 0..<1, injectable for tests.
    /// - Returns: seconds to wait.
    func delay(afterFailures failures: Int, retryAfter: TimeInterval?, random: Double = .random(in: 0..<1))
        -> TimeInterval
    {
        if let retryAfter { return min(max(retryAfter, 0), maxRetryAfter) }
        let exponent = min(max(failures - 1, 0), 30)
        let full = min(baseDelay * pow(2, Double(exponent)), maxDelay)
        let share = min(max(jitter, 0), 1)
        return full * (1 - share) + full * share * random
    }

    /// Parses a `Retry-After` header: delay-seconds or an HTTP-date.
    static func parseRetryAfter(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value) { return max(seconds, 0) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(date.timeIntervalSince(now), 0)
    }
}
