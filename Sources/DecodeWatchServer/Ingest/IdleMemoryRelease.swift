import DecodeWatchStore
import Foundation
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// Gives the memory that ingest freed back to the operating system once ingest goes quiet.
///
/// glibc's malloc keeps what is freed in its arenas (one per thread that allocated, up to eight per core) for the
/// next allocation: after a soak the collector stayed idle at several times its size at start, nearly all of it
/// free memory held by malloc (BENCHMARKS.md, "Current figures", memory). `malloc_trim(0)` hands back the free pages
/// inside every arena's heaps and the main arena's free top, but not the free top of a thread's arena, which glibc
/// shrinks only past its trim threshold (raised as large blocks are freed): what stays resident after a soak is
/// mostly those tops and pages that still hold a few live blocks (BENCHMARKS.md, "glibc's malloc after a soak"). It
/// walks the heaps, so it runs only once ingest has been quiet for a second, again after ``secondTrim`` (for what
/// the background folding of acknowledged batches freed meanwhile), and then every ``laterTrims`` while quiet.
///
/// From the second release on, the store first frees what it keeps only to go faster (``ReportStore/releaseMemory()``:
/// on SQLite the idle readers with their page caches and maps of the file, the writer's page cache and the table of
/// install rows committed lately), so that malloc has that to give back too.
///
/// With jemalloc preloaded (deploy/ runs the collector so), `malloc_trim` is glibc's and finds nothing to give
/// back; jemalloc returns freed pages itself only as later allocations advance its decay clock, which an idle
/// process never does. Its arenas are purged through `mallctl("arena.<all>.purge")` instead. Other allocators,
/// and other systems, are left alone.
struct IdleMemoryRelease: Service {
    /// Quiet seconds before the second release.
    static let secondTrim = 5
    /// Quiet seconds between later releases.
    static let laterTrims = 60

    let gate: IngestGate
    /// Frees its caches first, so that what they held is free when malloc gives memory back.
    let store: any ReportStore
    /// Called once per release; by default, ``releaseFreeMemory()``.
    var release: @Sendable () -> Void = { IdleMemoryRelease.releaseFreeMemory() }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var seen = gate.activity
            var quietSeconds = 0
            while (try? await Task.sleep(for: .seconds(1))) != nil {
                let activity = gate.activity
                if activity != seen || !gate.isIdle {
                    seen = activity
                    quietSeconds = 0
                    continue
                }
                quietSeconds += 1
                if quietSeconds == Self.secondTrim || quietSeconds % Self.laterTrims == 0 {
                    // Caches are freed only after a longer quiet than a lull between bursts.
                    await store.releaseMemory()
                }
                if quietSeconds == 1 || quietSeconds == Self.secondTrim || quietSeconds % Self.laterTrims == 0 {
                    release()
                }
            }
        }
    }

    /// Hands the allocator's free pages back to the operating system, where the allocator allows it.
    static func releaseFreeMemory() {
        #if canImport(Glibc)
            if let mallctl = jemallocControl {
                // MALLCTL_ARENAS_ALL: every arena.
                _ = mallctl("arena.4096.purge", nil, nil, nil, 0)
            } else if let trim = glibcTrim {
                _ = trim(0)
            }
        #endif
    }

    #if canImport(Glibc)
        private typealias MallocControl =
            @convention(c) (
                UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?,
                Int
            ) -> CInt

        private typealias MallocTrim = @convention(c) (Int) -> CInt

        /// jemalloc's `mallctl` when jemalloc is the process's allocator.
        private static let jemallocControl: MallocControl? = dlsym(nil, "mallctl").map {
            unsafeBitCast($0, to: MallocControl.self)
        }
        /// glibc's `malloc_trim`, looked up as Swift's Glibc module leaves `malloc.h` out.
        private static let glibcTrim: MallocTrim? = dlsym(nil, "malloc_trim").map {
            unsafeBitCast($0, to: MallocTrim.self)
        }
    #endif
}
