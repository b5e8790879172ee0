import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The topology of `deploy/compose/compose.yaml`, run from the same pieces on this machine: one
/// PostgreSQL, two `decodewatch serve` collectors with an ingest key and a read token, nginx with
/// `deploy/nginx/decodewatch.conf` in front (TLS, only `POST /v1/reports` public), and the digest job.
@Suite("Deploy topology: PostgreSQL, two collectors, nginx, digest job")
struct DeployTopologyTests {
    @Test(
        "batches through nginx count once across both collectors, survive one collector stopping, and reach the digest once"
    )
    func composeTopologyEndToEnd() async throws {
        try await CLI.withDatabase(on: .postgres) { folder, database in
            let key = try CLI.run(["keys", "create", "--create", "--app", "com.example.shop"] + database).output
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let token = try CLI.run(["tokens", "create", "--create", "--name", "dashboard"] + database).output
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(key.hasPrefix("dwk_") && token.hasPrefix("dwr_"))

            let collectors = [
                try CLI.start(["serve", "--port", "0"] + database), try CLI.start(["serve", "--port", "0"] + database),
            ]
            var ports: [Int] = []
            for collector in collectors { ports.append(try await collector.port()) }
            let proxy = try DeployNginx(upstreams: ports, folder: folder)
            defer { proxy.stop() }
            try await proxy.waitUntilListening()

            // Yesterday (UTC), so that the digest's default period, the last whole UTC day, holds it all.
            let yesterday = RFC3339.string(from: Date().addingTimeInterval(-86_400)).prefix(10)
            let batches = (0..<24).map { ReplicaBatch(index: $0, day: String(yesterday)) }
            for batch in batches.prefix(12) {
                #expect(try proxy.post(batch.body, key: key).status == 202, "batch \(batch.index)")
            }
            // One collector goes away (a rolling restart): nginx resends to the other, nothing is refused.
            #expect(try await collectors[0].terminate() == 0)
            for batch in batches.dropFirst(12) {
                #expect(try proxy.post(batch.body, key: key).status == 202, "batch \(batch.index)")
            }
            let again = try proxy.post(batches[0].body, key: key)
            #expect(again.status == 202 && again.body.contains(#""duplicate":true"#))
            #expect(try proxy.post(batches[1].body, key: nil).status == 401)
            #expect(try proxy.request("GET", "/v1/fields").status == 404, "the query API is not public")

            // The private side: the remaining collector answers with the read token.
            let since = "\(yesterday)T00:00:00Z"
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(ports[1])/v1/fields?since=\(since)")!)
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let (data, response) = try await session.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let fields = try JSONDecoder().decode(FieldsSummary.self, from: data).fields
            let expected = ReplicaBatch.expected(batches)
            #expect(fields.count == expected.count)
            for field in fields {
                let want = try #require(expected[field.path + " " + field.endpoint])
                #expect(field.count == want.count && field.installs == want.installs.count, "\(field.path)")
            }

            // The digest job, as the compose file's cron line runs it: posted once, however often it runs.
            let webhook = try await TestReceiver.webhook()
            defer { webhook.cancel() }
            let digest = ["digest", "--webhook", webhook.webhookURL.absoluteString] + database
            let first = try CLI.run(digest)
            #expect(first.status == 0, "\(first.error)")
            let second = try CLI.run(digest)
            #expect(second.status == 0 && second.error.contains("already delivered"), "\(second.error)")
            #expect(webhook.requests.count == 1)
            let text = String(decoding: webhook.requests.first?.body ?? Data(), as: UTF8.self)
            #expect(text.contains("GET /v2/posts") && text.contains("$.results.title"))

            #expect(try await collectors[1].terminate() == 0)
        }
    }
}

/// nginx with the site of `deploy/nginx/decodewatch.conf`, unchanged but for its addresses: every
/// `listen` moves to a free loopback port and the upstream servers become the given collectors.
/// Requests go through `curl` over TLS (a throw-away self-signed certificate).
final class DeployNginx: @unchecked Sendable {
    let publicPort: Int
    private let folder: URL
    private let process = Process()

    init(upstreams: [Int], folder base: URL) throws {
        folder = base.appendingPathComponent("nginx")
        let tls = folder.appendingPathComponent("tls")
        try FileManager.default.createDirectory(at: tls, withIntermediateDirectories: true)
        // nginx's workers run as nobody when the tests run as root.
        for directory in [base, folder] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        }
        let certificate = try Self.tool(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/CN=localhost", "-keyout", tls.appendingPathComponent("decodewatch.key").path,
                "-out", tls.appendingPathComponent("decodewatch.crt").path,
            ])
        guard certificate.status == 0 else { throw DeployNginxError(message: certificate.output) }

        var site = try String(
            contentsOf: CLI.repository.appendingPathComponent("deploy/nginx/decodewatch.conf"), encoding: .utf8)
        publicPort = try LocalPort.free()
        site = site.replacingOccurrences(of: "listen 443 ssl;", with: "listen 127.0.0.1:\(publicPort) ssl;")
        site = site.replacingOccurrences(
            of: "listen 127.0.0.1:8081;", with: "listen 127.0.0.1:\(try LocalPort.free());")
        for (index, port) in upstreams.enumerated() {
            site = site.replacingOccurrences(of: "server collector-\(index + 1):8080", with: "server 127.0.0.1:\(port)")
        }
        try site.write(to: folder.appendingPathComponent("decodewatch.conf"), atomically: true, encoding: .utf8)
        let temporaryPaths = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
            .map { "\($0)_temp_path \(folder.path)/\($0);" }.joined(separator: "\n")
        let main = """
            pid \(folder.path)/nginx.pid;
            worker_processes 1;
            events { worker_connections 64; }
            http {
            access_log off;
            \(temporaryPaths)
            include \(folder.path)/decodewatch.conf;
            }
            """
        try main.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)

        process.executableURL = Subprocess.path(of: "nginx")
        process.arguments = [
            "-p", folder.path + "/", "-c", folder.appendingPathComponent("nginx.conf").path,
            "-e", folder.appendingPathComponent("error.log").path, "-g", "daemon off;",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for nginx to accept TLS connections, or throws with its error log.
    func waitUntilListening() async throws {
        let listening = try await eventually(every: .milliseconds(100)) {
            process.isRunning && (try? request("GET", "/"))?.status == 404
        }
        if listening { return }
        let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        throw DeployNginxError(message: "nginx did not start: \(log)")
    }

    /// POSTs a batch to the public `/v1/reports`, with the ingest key when one is given.
    func post(_ body: Data, key: String?) throws -> (status: Int, body: String) {
        let file = folder.appendingPathComponent("batch-\(UUID().uuidString).json")
        try body.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var headers = ["Content-Type: application/json"]
        if let key { headers.append("Authorization: Bearer \(key)") }
        return try request("POST", "/v1/reports", headers: headers, bodyFile: file)
    }

    /// One request through nginx's public listener.
    func request(_ method: String, _ path: String, headers: [String] = [], bodyFile: URL? = nil) throws -> (
        status: Int, body: String
    ) {
        var arguments = ["-sk", "--max-time", "20", "-X", method, "-w", "\n%{http_code}"]
        for header in headers { arguments += ["-H", header] }
        if let bodyFile { arguments += ["--data-binary", "@" + bodyFile.path] }
        arguments.append("https://127.0.0.1:\(publicPort)\(path)")
        let result = try Self.tool("curl", arguments)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// Sends SIGTERM, which nginx answers with a fast shutdown; for a `defer`, so it does not wait for the exit.
    func stop() {
        process.terminate()
    }

    private static func tool(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try Subprocess.run(tool: name, arguments, mergeError: true)
        return (result.status, result.output)
    }
}

struct DeployNginxError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A free TCP port on 127.0.0.1, found by binding port 0.
enum LocalPort {
    static func free() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw DeployNginxError(message: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw DeployNginxError(message: "no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
