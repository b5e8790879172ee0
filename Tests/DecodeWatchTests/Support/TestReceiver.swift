import DecodeWatchCore
import DecodeWatchZlib
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 server on a loopback port that records requests and answers from a script.
///
/// Real sockets, so the SDK's real `URLSession` upload is exercised; one connection at a time,
/// `Connection: close` on every answer. Bodies with `Content-Encoding: deflate` are inflated with
/// `Zlib.decompress` and decoded as ``ReportBatch``.
final class TestReceiver: @unchecked Sendable {
    struct Request: Sendable {
        let method: String
        let target: String
        /// Header names lower-cased.
        let headers: [String: String]
        let body: Data
        let receivedAt: Date

        var inflated: Data? {
            headers["content-encoding"] == "deflate" ? try? Zlib.decompress(body) : body
        }

        var batch: ReportBatch? {
            inflated.flatMap { try? JSONDecoder().decode(ReportBatch.self, from: $0) }
        }
    }

    enum Reply: Sendable {
        case status(Int, headers: [String: String] = [:], body: String = "{}")
        /// Close the connection without answering: the client sees a network error.
        case hangUp

        static let accepted = Reply.status(202, body: #"{"accepted":1,"rejected":[],"duplicate":false}"#)

        /// An error answer with the contract's body, `{"error": {"code": …, "message": …}}`.
        static func error(_ status: Int, code: String, message: String) -> Reply {
            let body = try! JSONSerialization.data(withJSONObject: ["error": ["code": code, "message": message]])
            return .status(status, body: String(decoding: body, as: UTF8.self))
        }
    }

    let port: UInt16
    private let socketFD: Int32
    private let lock = NSLock()
    private var recorded: [Request] = []
    private var script: [Reply] = []

    /// Starts listening on 127.0.0.1 on a free port.
    init() throws {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.socketFD = fd
        self.port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The collector base URL to configure.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Queues answers for the next requests; afterwards every request gets ``Reply/accepted``.
    func reply(_ replies: Reply...) {
        lock.withLock { script.append(contentsOf: replies) }
    }

    /// The requests received so far.
    var requests: [Request] { lock.withLock { recorded } }

    /// Waits until at least `count` requests have arrived, or the timeout passes.
    func waitForRequests(_ count: Int, timeout: TimeInterval = 10) async -> [Request] {
        let deadline = Date().addingTimeInterval(timeout)
        while requests.count < count, Date() < deadline {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return requests
    }

    /// Stops listening: later connections are refused, as if the collector were down.
    ///
    /// Only shuts the socket down; the accept thread closes it when its `accept` fails. Closing it here
    /// would free the descriptor number while that thread may still be about to call `accept` on it (it
    /// starts asynchronously), and then it would serve a newer socket that got the same number.
    func stop() {
        shutdown(socketFD, Int32(SHUT_RDWR))
    }

    /// Serves connections until ``stop()``; the thread keeps the receiver alive until then, so there is
    /// no `deinit` that could close the descriptor a second time.
    private func acceptLoop() {
        while true {
            let client = accept(socketFD, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                close(socketFD)
                return
            }
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        func readMore() -> Bool {
            let count = read(client, &chunk, chunk.count)
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            guard readMore() else { return }
            headerEnd = buffer.firstRange(of: separator)?.lowerBound
        }
        let head = String(decoding: buffer[..<headerEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = head[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            send(client, "HTTP/1.1 100 Continue\r\n\r\n")
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = headerEnd! + 4
        while buffer.count - bodyStart < length {
            guard readMore() else { return }
        }
        let request = Request(
            method: String(requestLine.first ?? ""), target: requestLine.count > 1 ? String(requestLine[1]) : "",
            headers: headers, body: Data(buffer[bodyStart..<(bodyStart + length)]), receivedAt: Date())
        let reply: Reply = lock.withLock {
            recorded.append(request)
            return script.isEmpty ? .accepted : script.removeFirst()
        }
        switch reply {
        case .hangUp:
            return
        case .status(let status, let extra, let body):
            var text =
                "HTTP/1.1 \(status) Status\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            text += "Connection: close\r\n"
            for (name, value) in extra { text += "\(name): \(value)\r\n" }
            send(client, text + "\r\n" + body)
        }
    }

    private func send(_ client: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }
}
