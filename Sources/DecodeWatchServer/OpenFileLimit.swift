import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Makes room under the process's open-file limit for every connection `--max-connections` allows.
///
/// Each connection is a file descriptor. A shell's soft limit is often 1,024, below the default of
/// ``ServerConfiguration/maxConnections``; past it, `accept` fails and a connection waits in the backlog although
/// the collector has room for it. As Go's runtime and nginx's `worker_rlimit_nofile` do, the collector raises its
/// soft limit as far as the hard limit allows, and warns, naming both figures, when even the hard limit is too low.
enum OpenFileLimit {
    /// Descriptors kept for what is not a connection: the listener, the database and its journal, PostgreSQL
    /// connections, outgoing webhooks, standard streams.
    static let reserve = 128

    /// Raises the soft limit to fit `connections` plus ``reserve``, up to the hard limit.
    static func fit(connections: Int, logger: Logger) {
        #if canImport(Glibc)
            var limit = rlimit()
            let needed = rlim_t(clamping: connections) + rlim_t(reserve)
            guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < needed else { return }
            let raised = min(needed, limit.rlim_max)
            if raised > limit.rlim_cur {
                var wanted = limit
                wanted.rlim_cur = raised
                if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &wanted) == 0 { limit = wanted }
            }
            if limit.rlim_cur < needed {
                logger.warning(
                    """
                    The open-file limit is \(limit.rlim_cur) (hard limit \(limit.rlim_max)), below the \
                    \(connections) connections --max-connections allows plus \(reserve) for the database and the \
                    listener: connections past it wait in the listen backlog. Raise the limit (systemd: \
                    LimitNOFILE; a shell: ulimit -n) or lower --max-connections.
                    """)
            }
        #endif
    }
}
