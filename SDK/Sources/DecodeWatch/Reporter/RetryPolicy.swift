import Foundation

/// How failed uploads are retried: exponential backoff with jitter, and the server's `Retry-After`.
///
/// A flush retries a batch in place while the wait is short (``maxInlineDelay``), so a brief
/// outage costs one flush; a longer wait is remembered and later flushes only spool until it has
/// passed, so an app that calls ``Reporter/flush()`` never hangs on a server that asked for quiet.
///
/// Two backoffs, because failures differ in how soon they can pass. Network errors, 5xx, 408 and
/// 429 usually pass within minutes: ``baseDelay`` doubling to ``maxDelay``. A refusal (401, 403 or
/// another 4xx) only passes when someone changes something, a key, the app's configuration or the
/// collector: ``refusalBaseDelay`` (5 minutes) doubling to ``refusalMaxDelay`` (1 hour), so that
/// devices with a wrong key do not hammer the collector while the batches wait in the spool. Both
/// are shortened by up to the ``jitter`` share, so that many devices do not retry in step.
extension ReporterConfiguration {
    /// (Nested in ``ReporterConfiguration`` so the app's namespace keeps `RetryPolicy` free: Alamofire has one.)
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
        /// The wait after the first refusal (a 4xx other than 408 and 429), 300 seconds by default.
        ///
        /// Long because a refusal is fixed by a person, not by time. Lower it (with ``refusalMaxDelay``)
        /// in tests, or for an internal build whose operator wants a fixed key picked up sooner.
        public var refusalBaseDelay: TimeInterval
        /// The longest wait after repeated refusals, 3600 seconds by default.
        public var refusalMaxDelay: TimeInterval

        /// Creates a retry policy.
        /// - Parameters:
        ///   - baseDelay: seconds to wait after the first failure; doubled after each further one.
        ///   - maxDelay: the longest backoff in seconds.
        ///   - jitter: the random share of each wait, 0…1.
        ///   - maxAttemptsPerFlush: attempts per batch within one flush.
        ///   - maxInlineDelay: the longest wait a flush sleeps through.
        ///   - maxRetryAfter: the longest `Retry-After` honoured.
        ///   - refusalBaseDelay: seconds to wait after the first refusal; doubled after each further one.
        ///   - refusalMaxDelay: the longest backoff after refusals, in seconds.
        public init(
            baseDelay: TimeInterval = 2, maxDelay: TimeInterval = 600, jitter: Double = 0.5,
            maxAttemptsPerFlush: Int = 3,
            maxInlineDelay: TimeInterval = 10, maxRetryAfter: TimeInterval = 3600, refusalBaseDelay: TimeInterval = 300,
            refusalMaxDelay: TimeInterval = 3600
        ) {
            self.baseDelay = baseDelay
            self.maxDelay = maxDelay
            self.jitter = jitter
            self.maxAttemptsPerFlush = maxAttemptsPerFlush
            self.maxInlineDelay = maxInlineDelay
            self.maxRetryAfter = maxRetryAfter
            self.refusalBaseDelay = refusalBaseDelay
            self.refusalMaxDelay = refusalMaxDelay
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
            return backoff(failures, base: baseDelay, cap: maxDelay, random: random)
        }

        /// The wait after `refusals` consecutive refusals (1 or more), with jitter.
        ///
        /// The jitter shortens the wait, never lengthens it: the first wait is between
        /// `refusalBaseDelay × (1 − jitter)` and `refusalBaseDelay`.
        /// - Parameters:
        ///   - refusals: consecutive refusals so far.
        ///   - random: a number in 0..<1, injectable for tests.
        /// - Returns: seconds to wait.
        func delay(afterRefusals refusals: Int, random: Double = .random(in: 0..<1)) -> TimeInterval {
            backoff(refusals, base: refusalBaseDelay, cap: refusalMaxDelay, random: random)
        }

        private func backoff(_ failures: Int, base: TimeInterval, cap: TimeInterval, random: Double) -> TimeInterval {
            let exponent = min(max(failures - 1, 0), 30)
            let full = min(base * pow(2, Double(exponent)), cap)
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
}

/// The retry policy's name before it moved into ``ReporterConfiguration``.
@available(*, deprecated, renamed: "ReporterConfiguration.RetryPolicy")
public typealias RetryPolicy = ReporterConfiguration.RetryPolicy
