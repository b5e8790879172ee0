import Foundation

extension JSONDecoder {
    /// Decodes a response, reporting every failure to `reporter` and counting the decode.
    ///
    /// The recommended way to decode with DecodeWatch: it sets the ``DecodeContext`` for this call
    /// only (in a task-local value, so a shared decoder is never mutated and concurrent decodes do
    /// not see each other's endpoint), counts one decode of `endpoint` for the breaking rate, and,
    /// when the whole payload fails (an error no wrapper caught), reports that failure before
    /// rethrowing it. Unsampled responses are decoded with no DecodeWatch work at all.
    /// - Parameters:
    ///   - type: the root type.
    ///   - data: the response body.
    ///   - endpoint: `"METHOD /path"`, e.g. `GET /v2/posts?page=2`; normalized before it is sent.
    ///   - reporter: where failures go.
    /// - Returns: the decoded value.
    /// - Throws: what `decode(_:from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, endpoint: String, reporter: Reporter) throws -> T
    {
        let context = DecodeContext(
            endpoint: endpoint, rootType: type, reporter: reporter, keyDecodingStrategy: keyDecodingStrategy)
        guard context.isSampled else { return try decode(type, from: data) }
        context.countDecode()
        do {
            return try DecodeContext.$current.withValue(context) { try decode(type, from: data) }
        } catch {
            Capture.rootFailure(error, data: data, context: context, rootType: type)
            throw error
        }
    }
}
