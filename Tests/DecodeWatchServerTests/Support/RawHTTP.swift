import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes raw bytes to a loopback port and reads what comes back: for requests no HTTP client
/// would send, such as broken framing or a body that stalls.
enum RawHTTP {
    /// What the server did with a raw request.
    struct Exchange {
        /// Everything the server wrote before closing or the read timeout.
        let response: String
        /// Whether the server closed the connection (rather than the read timing out).
        let closed: Bool
        /// Seconds from the last byte sent to the end of the exchange.
        let seconds: Double

        /// The status code of the first response, if any.
        var status: Int? {
            let parts = response.split(separator: " ", maxSplits: 2)
            return parts.count >= 2 && parts[0].hasPrefix("HTTP/1.") ? Int(parts[1]) : nil
        }
    }

    /// Sends `bytes`, optionally closes the sending half, and reads until the server closes or
    /// `timeout` seconds pass without data.
    static func exchange(port: Int, _ bytes: [UInt8], halfClose: Bool = true, timeout: Int = 10) throws -> Exchange {
        let fd = try dial(port: port)
        defer { close(fd) }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if halfClose { shutdown(fd, Int32(SHUT_WR)) }
        let started = Date()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var closed = false
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 {
                received += buffer[0..<count]
            } else {
                closed = count == 0 || errno == ECONNRESET
                break
            }
        }
        return Exchange(
            response: String(decoding: received, as: UTF8.self), closed: closed,
            seconds: Date().timeIntervalSince(started))
    }

    /// A socket connected to the loopback port; the caller closes it.
    static func dial(port: Int) throws -> CInt {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw TestFailure("connect() to port \(port) failed")
        }
        return fd
    }
}
