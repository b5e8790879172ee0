import DecodeWatchWire
import DecodeWatchZlib
import Foundation

@testable import DecodeWatch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A collector inside the test process: a `URLProtocol` that records the reporter's uploads and answers from a
/// script, so the SDK's own tests exercise its real `URLSession` code with no server and no network.
///
/// Each stub has a host of its own (`http://<uuid>.stub.invalid`) and a session that routes to it. After
/// ``stop()`` every request fails with `URLError(.cannotConnectToHost)`, as if the collector were down.
final class StubCollector: Sendable {
    /// One upload as the collector saw it.
    struct Request: Sendable {
        /// Header names lower-cased.
        let headers: [String: String]
        let body: Data

        /// The body inflated when it says `Content-Encoding: deflate`.
        var inflated: Data? {
            headers["content-encoding"] == "deflate" ? try? Zlib.decompress(body) : body
        }

        /// The body as a batch, when it is one.
        var batch: ReportBatch? {
            inflated.flatMap { try? JSONDecoder().decode(ReportBatch.self, from: $0) }
        }
    }

    /// How the stub answers one request.
    enum Reply: Sendable {
        case status(Int, body: String = "{}")

        static let accepted = Reply.status(202, body: #"{"accepted":1,"rejected":[],"duplicate":false}"#)
    }

    private struct State {
        var recorded: [Request] = []
        var script: [Reply] = []
        var isDown = false
    }

    private let state = Locked(State())
    /// The collector base URL to configure.
    let url: URL
    /// The session to give the reporter; it reaches this stub only.
    let session: URLSession

    init() {
        let host = "\(UUID().uuidString.lowercased()).stub.invalid"
        url = URL(string: "http://\(host)")!
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubProtocol.self]
        session = URLSession(configuration: configuration)
        StubProtocol.stubs.withLock { $0[host] = self }
    }

    deinit {
        let host = url.host
        StubProtocol.stubs.withLock { $0[host ?? ""] = nil }
    }

    /// Queues answers for the next requests; afterwards every request gets ``Reply/accepted``.
    func reply(_ replies: Reply...) {
        state.withLock { $0.script.append(contentsOf: replies) }
    }

    /// From now on every request fails as a refused connection does.
    func stop() {
        state.withLock { $0.isDown = true }
    }

    /// The requests received so far (none while stopped).
    var requests: [Request] { state.withLock { $0.recorded } }

    /// Records a request and picks its answer; `nil` while the collector is down (called by the protocol).
    func receive(_ request: Request) -> Reply? {
        state.withLock {
            guard !$0.isDown else { return nil }
            $0.recorded.append(request)
            return $0.script.isEmpty ? .accepted : $0.script.removeFirst()
        }
    }
}

/// Routes requests to the ``StubCollector`` that owns their host.
private final class StubProtocol: URLProtocol {
    static let stubs = Locked<[String: StubCollector]>([:])

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func stopLoading() {}

    override func startLoading() {
        let stub = request.url?.host.flatMap { host in Self.stubs.withLock { $0[host] } }
        var headers: [String: String] = [:]
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers[name.lowercased()] = value }
        // Apple's URLSession hands a protocol the body as a stream; Linux's as `httpBody`.
        let body = request.httpBody ?? request.httpBodyStream.map(Self.read) ?? Data()
        guard let stub,
            case .status(let status, let text) = stub.receive(StubCollector.Request(headers: headers, body: body))
        else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost))
            return
        }
        let response = HTTPURLResponse(
            url: request.url!, statusCode: status, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json"])!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data(text.utf8))
        client?.urlProtocolDidFinishLoading(self)
    }

    private static func read(_ stream: InputStream) -> Data {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while case let count = stream.read(&buffer, maxLength: buffer.count), count > 0 {
            data.append(buffer, count: count)
        }
        return data
    }
}
