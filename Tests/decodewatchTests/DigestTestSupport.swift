import DecodeWatchCore
import DecodeWatchStore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real HTTP/1.1 receiver on 127.0.0.1: answers each POST with the next scripted status (then 200)
/// and records the bodies. One connection at a time, `Connection: close`; enough for a webhook.
final class LocalHTTPReceiver: @unchecked Sendable {
    struct Received: Sendable {
        var requestLine: String
        var headers: [String: String]
        var body: Data
    }

    let port: Int
    private let socketFD: Int32
    private let lock = NSLock()
    private var script: [Int]
    private var received: [Received] = []
    /// How long each answer takes, as a slow webhook's would.
    private let delay: TimeInterval

    init(statuses: [Int] = [], delay: TimeInterval = 0) throws {
        script = statuses
        self.delay = delay
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw POSIXError(.EIO) }
        self.socketFD = socketFD
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socketFD, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/hooks/digest")! }

    var requests: [Received] { lock.withLock { received } }

    func stop() {
        shutdown(socketFD, Int32(SHUT_RDWR))
        close(socketFD)
    }

    private func acceptLoop() {
        while true {
            let client = accept(socketFD, nil, nil)
            if client < 0 { return }
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        func readMore() -> Bool {
            let n = read(client, &chunk, chunk.count)
            if n <= 0 { return false }
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil { if !readMore() { return } }
        let headerEnd = buffer.range(of: separator)!
        let head = String(decoding: buffer[..<headerEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst()
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" { send(client, "HTTP/1.1 100 Continue\r\n\r\n") }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        var body = Data(buffer[headerEnd.upperBound...])
        while body.count < length {
            let before = buffer.count
            if !readMore() { break }
            body.append(buffer[before...])
        }
        let status: Int = lock.withLock {
            received.append(Received(requestLine: requestLine, headers: headers, body: body))
            return script.isEmpty ? 200 : script.removeFirst()
        }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        send(
            client,
            "HTTP/1.1 \(status) Scripted\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
        )
    }

    private func send(_ client: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
    }
}

/// A fresh SQLite store on a temporary file, fed through the real validator and folding.
struct DigestFixture {
    let store: SQLiteReportStore
    let folder: URL
    var path: String { folder.appendingPathComponent("decodewatch.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("digest-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try SQLiteReportStore(path: folder.appendingPathComponent("decodewatch.sqlite").path)
    }

    func reopen() throws -> SQLiteReportStore { try SQLiteReportStore(path: path) }

    func send(
        _ count: Int, at time: String, path: [Any], endpoint: String = "GET /v2/posts", version: String = "5.2.0",
        install: String = "install-1"
    ) async throws {
        let body: [String: Any] = [
            "batch_id": UUID().uuidString, "app": ["id": "com.example.shop", "version": version], "install_id": install,
            "decodes": [["endpoint": endpoint, "count": count * 10]],
            "reports": [
                ["occurred_at": time, "endpoint": endpoint, "path": path, "kind": "keyNotFound", "count": count]
            ],
        ]
        let batch = try BatchValidator().validate(
            JSONSerialization.data(withJSONObject: body), receivedAt: RFC3339.date(from: time)!.addingTimeInterval(30))
        _ = try await store.ingest(BatchAggregate(batch, redactor: Redactor()))
    }

    /// A day with a new, a growing, a fading and a regressed group, on two endpoints.
    func seedDay() async throws {
        try await send(10, at: "2026-11-02T05:00:00Z", path: ["results", 0, "grow"])
        for hour in 0..<24 where hour % 3 == 0 {
            try await send(5 + hour, at: String(format: "2026-11-03T%02d:10:00Z", hour), path: ["results", 0, "grow"])
        }
        try await send(25, at: "2026-11-03T04:00:00Z", path: ["results", 0, "new"], version: "5.3.0")
        try await send(40, at: "2026-11-02T09:00:00Z", path: ["fade"], endpoint: "GET /v2/users/7")
        try await send(3, at: "2026-11-03T09:00:00Z", path: ["fade"], endpoint: "GET /v2/users/8")
        try await send(2, at: "2026-11-01T09:00:00Z", path: ["back"])
        let summary = try await store.fields(
            FieldsQuery(
                since: RFC3339.date(from: "2026-11-01T00:00:00Z")!, until: RFC3339.date(from: "2026-11-02T00:00:00Z")!))
        try await store.resolve(group: summary.fields[0].group, at: RFC3339.date(from: "2026-11-01T12:00:00Z")!)
        try await send(7, at: "2026-11-03T20:00:00Z", path: ["back"], version: "5.3.1")
    }

    static let period = DigestPeriod(
        since: RFC3339.date(from: "2026-11-03T00:00:00Z")!, until: RFC3339.date(from: "2026-11-04T00:00:00Z")!)
    static let now = RFC3339.date(from: "2026-11-04T00:07:00Z")!
}
