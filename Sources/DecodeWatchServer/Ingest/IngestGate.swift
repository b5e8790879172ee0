import Foundation
import Synchronization

/// Admission control for ingest: a cap on requests in progress (the ingest queue) and an optional
/// per-app token bucket. Over either, the client gets 429 with `Retry-After`.
///
/// Buckets of idle apps are evicted: a bucket untouched for a minute is full again, exactly what a
/// new one would be, so forgetting it changes no answer and app ids cannot grow memory.
final class IngestGate: Sendable {
    private let maxConcurrent: Int
    private let batchesPerMinute: Int?
    private let inFlight = Atomic<Int>(0)
    private let requests = Atomic<Int>(0)
    private let buckets = Mutex<[String: TokenBucket]>([:])
    /// Buckets kept before idle ones are swept.
    static let sweepThreshold = 1024

    init(maxConcurrent: Int, batchesPerMinute: Int?) {
        self.maxConcurrent = maxConcurrent
        self.batchesPerMinute = batchesPerMinute
    }

    /// Takes a place in the ingest queue.
    /// - Returns: `false` when the queue is full.
    func enter() -> Bool {
        requests.add(1, ordering: .relaxed)
        let now = inFlight.add(1, ordering: .acquiringAndReleasing).newValue
        if now > maxConcurrent {
            inFlight.subtract(1, ordering: .acquiringAndReleasing)
            return false
        }
        return true
    }

    /// Batches that asked for a place so far, let in or not: it changes while ingest is busy.
    var activity: Int { requests.load(ordering: .relaxed) }

    /// Whether no batch holds a place now.
    var isIdle: Bool { inFlight.load(ordering: .relaxed) == 0 }

    /// Gives back a place taken by ``enter()``.
    func leave() {
        inFlight.subtract(1, ordering: .acquiringAndReleasing)
    }

    /// How many apps have a bucket now.
    var trackedApps: Int { buckets.withLock { $0.count } }

    /// Takes one batch from an app's allowance.
    /// - Returns: `nil` when allowed, or the seconds until the app may send again.
    func admit(app: String, at now: Date = Date()) -> Int? {
        guard let batchesPerMinute else { return nil }
        return buckets.withLock { buckets in
            if buckets.count >= Self.sweepThreshold, buckets[app] == nil {
                buckets = buckets.filter { now.timeIntervalSince($0.value.refilled) < 60 }
            }
            var bucket = buckets[app] ?? TokenBucket(capacity: Double(batchesPerMinute), refilled: now)
            let wait = bucket.take(at: now, perSecond: Double(batchesPerMinute) / 60)
            buckets[app] = bucket
            return wait
        }
    }
}

/// A token bucket that starts full and refills continuously.
struct TokenBucket {
    let capacity: Double
    var tokens: Double
    var refilled: Date

    init(capacity: Double, refilled: Date) {
        self.capacity = capacity
        self.tokens = capacity
        self.refilled = refilled
    }

    /// Takes a token. - Returns: `nil` on success, else whole seconds until one is available.
    mutating func take(at now: Date, perSecond rate: Double) -> Int? {
        tokens = min(capacity, tokens + now.timeIntervalSince(refilled) * rate)
        refilled = now
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return max(1, Int(((1 - tokens) / rate).rounded(.up)))
    }
}
