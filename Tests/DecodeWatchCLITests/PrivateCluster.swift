import Foundation

/// A PostgreSQL cluster of the test's own, in a temporary folder on a free loopback port, that a test may
/// stop, freeze or make read-only without touching the shared server of `DECODEWATCH_TEST_DATABASE_URL`.
///
/// It uses Debian's server programs (`/usr/lib/postgresql/*/bin`), like `scripts/test`; as root they run as
/// the `postgres` user, since initdb and pg_ctl refuse root. No password: it listens on 127.0.0.1 only
/// and lives as long as the test.
final class PrivateCluster: Sendable {
    /// The collectors' URL.
    let url: String
    private let folder: URL
    private let bin: URL
    private let port: Int
    private let asOwner: [String]

    /// Creates and starts a cluster.
    /// - Throws: ``PrivateClusterError`` when the server programs are missing or a step fails.
    init() throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.sorted(by: { $0.compare($1, options: .numeric) == .orderedAscending }).last
        else { throw PrivateClusterError("PostgreSQL's server programs are missing (/usr/lib/postgresql/*/bin).") }
        bin = URL(fileURLWithPath: "/usr/lib/postgresql/\(version)/bin")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("decodewatch-fault-cluster-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        asOwner = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []
        if getuid() == 0 { try Self.run(["/bin/chown", "postgres:", folder.path]) }
        port = try Self.freePort()
        url = "postgres://decodewatch@127.0.0.1:\(port)/postgres?sslmode=disable"
        try server(
            "initdb", "-D", cluster, "-U", "decodewatch", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8",
            "--no-sync")
        try start()
    }

    private var cluster: String { folder.appendingPathComponent("cluster").path }

    /// Starts the server; fsync is off because the cluster is thrown away.
    func start() throws {
        try server(
            "pg_ctl", "-D", cluster, "-l", folder.appendingPathComponent("server.log").path, "-w", "-t", "60", "-o",
            "-c listen_addresses=127.0.0.1 -p \(port) -k \(folder.path) -c fsync=off -c max_connections=100", "start")
    }

    /// Stops the server as `pg_ctl stop -m fast` does: sessions are ended, their transactions rolled back.
    func stopFast() throws {
        try server("pg_ctl", "-D", cluster, "-m", "fast", "-w", "stop")
    }

    /// Runs SQL as the superuser, on a session that may write even while the cluster is made read-only.
    func sql(_ statement: String) throws {
        try Self.run(
            ["/usr/bin/psql", "--no-psqlrc", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", statement],
            environment: ["PGOPTIONS": "-c default_transaction_read_only=off"])
    }

    /// Ends every session but the caller's, as an administrator's `pg_terminate_backend` does.
    func terminateSessions() throws {
        try sql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                + "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")
    }

    /// Makes every new transaction read-only (or writable again), and ends the sessions so that each new
    /// one reads the setting.
    func setReadOnly(_ readOnly: Bool) throws {
        try sql(
            readOnly
                ? "ALTER SYSTEM SET default_transaction_read_only = on"
                : "ALTER SYSTEM RESET default_transaction_read_only")
        try sql("SELECT pg_reload_conf()")
        try terminateSessions()
    }

    /// The postmaster and every process it started (backends and its helpers).
    func processes() throws -> [pid_t] {
        let pidFile = try String(contentsOfFile: cluster + "/postmaster.pid", encoding: .utf8)
        guard let postmaster = pidFile.split(separator: "\n").first.flatMap({ pid_t($0) }) else {
            throw PrivateClusterError("postmaster.pid holds no process id")
        }
        var children: [pid_t] = []
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") {
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // Fields after the command name: state, then the parent's process id.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == postmaster { children.append(pid) }
        }
        return [postmaster] + children
    }

    /// Freezes every process of the cluster, as a network that stops carrying packets would look: the
    /// kernel still accepts connections, nothing answers.
    /// - Returns: the processes frozen, for ``thaw(_:)``.
    func freeze() throws -> [pid_t] {
        // The postmaster first, so that it starts no backend after the others are listed.
        let postmaster = try processes()[0]
        kill(postmaster, SIGSTOP)
        let frozen = try processes()
        for pid in frozen.dropFirst() { kill(pid, SIGSTOP) }
        return frozen
    }

    /// Lets frozen processes run again.
    func thaw(_ frozen: [pid_t]) {
        for pid in frozen { kill(pid, SIGCONT) }
    }

    /// Stops the server at once and deletes its folder; thaws it first, should a failed test have left it frozen.
    func destroy() {
        if let all = try? processes() { thaw(all) }
        try? server("pg_ctl", "-D", cluster, "-m", "immediate", "-w", "stop")
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs one of the server programs as the cluster's owner, from the cluster's folder.
    private func server(_ program: String, _ arguments: String...) throws {
        try Self.run(asOwner + [bin.appendingPathComponent(program).path] + arguments, in: folder)
    }

    /// Runs a command to its end, its output to a file.
    ///
    /// posix_spawn and waitpid rather than `Process`: Foundation learns that a child ended from a
    /// descriptor the child holds, which the server that pg_ctl starts inherits, so `Process` would wait
    /// until the server stops.
    private static func run(_ command: [String], in folder: URL? = nil, environment: [String: String] = [:]) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("decodewatch-command-\(UUID())")
        defer { try? FileManager.default.removeItem(at: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The shell enters the folder first: the server programs, run as postgres, cannot read root's.
        let shell = ["/bin/sh", "-c", #"cd "$0" && exec "$@""#, folder?.path ?? "/"] + command
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        let argv = shell.map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, shell[0], &actions, nil, argv, envp) == 0 else {
            throw PrivateClusterError("cannot run \(command[0])")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw PrivateClusterError("\(command.last ?? "") failed (wait status \(status)): \(printed)")
        }
    }

    /// A loopback port nothing listens on now.
    private static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw PrivateClusterError("no socket for a free port") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw PrivateClusterError("cannot bind a loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A step of ``PrivateCluster`` failed.
struct PrivateClusterError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
