import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Sends the request on a session of its own that keeps nothing (no cookies, cache or credentials), ended once
    /// the answer is in.
    /// - Parameter unreachable: the error to throw when no answer came, made from what failed; its
    ///   ``Swift/Error/requestProblem`` says what in words that never quote the URL.
    /// - Returns: the body and the HTTP answer, whatever its status, for the caller to judge.
    package func sendEphemerally(
        unreachable: (any Error) -> any Error
    ) async throws -> (body: Data, response: HTTPURLResponse?) {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.data(for: self)
            return (data, response as? HTTPURLResponse)
        } catch {
            throw unreachable(error)
        }
    }
}
