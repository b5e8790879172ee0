import DecodeWatchTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore

extension TestHTTPClient {
    /// A client that hands each request to a collector's router in memory, with no socket: HummingbirdTesting's
    /// `.router` client of an application under `test(.router)`.
    init(router client: any TestClientProtocol) {
        self.init { method, path, body, headers in
            var fields = HTTPFields()
            for (name, value) in headers {
                guard let field = HTTPField.Name(name) else { throw TestFailure("No header name: \(name)") }
                fields[field] = value
            }
            let response = try await client.executeRequest(
                uri: path, method: HTTPRequest.Method(method)!, headers: fields,
                body: body.map { ByteBuffer(bytes: $0) })
            let answered = Dictionary(
                response.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { "\($0), \($1)" })
            return HTTPAnswer(
                status: response.status.code, headers: answered, body: Data(response.body.readableBytesView))
        }
    }
}
