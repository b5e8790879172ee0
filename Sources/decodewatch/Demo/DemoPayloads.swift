import DecodeWatch
import Foundation

/// Broken backend responses, each decoded through the SDK as an app would decode it.
enum DemoPayloads {
    /// Decodes every payload once, reporting to the given reporter.
    static func decodeAll(with reporter: Reporter) {
        let decoder = JSONDecoder()
        for (endpoint, decode) in payloads {
            _ = try? decode(decoder, endpoint, reporter)
        }
    }

    typealias Decode = @Sendable (JSONDecoder, String, Reporter) throws -> Any

    private static func decoding<T: Decodable>(_ type: T.Type, _ json: String) -> Decode {
        { decoder, endpoint, reporter in
            try decoder.decode(type, from: Data(json.utf8), endpoint: endpoint, reporter: reporter)
        }
    }

    static let payloads: [(String, Decode)] = [
        // A post without its title, and one whose link is not a URL.
        (
            "GET /v2/posts?page=2",
            decoding(
                PostsPage.self,
                #"""
                {"results": [
                  {"id": "pos_1", "title": "Hello", "author": {"name": "Ann", "followers": 12}, "link": "https://example.com/1"},
                  {"id": "pos_2", "author": {"name": "Bob", "followers": 3}, "link": "https://example.com/2"},
                  {"id": "pos_3", "title": "Third", "author": {"name": "Eve", "followers": 7}, "link": ""}
                ]}
                """#)
        ),
        // A device whose system is a value the app does not know yet.
        (
            "GET /v1/devices/8f14e45f-ceea-4e7a-9b1c-3d2f1a0b9c8d",
            decoding(Device.self, #"{"id": "dev_9", "system": "visionOS", "name": "Ann's headset"}"#)
        ),
        // Comments where the backend put an error object in place of some elements.
        (
            "GET /v1/posts/42/comments",
            decoding(
                CommentsPage.self,
                #"""
                {"comments": [
                  {"id": 1, "text": "Nice"},
                  {"error": "comment 2 is hidden", "email": "moderator@example.com"},
                  {"id": 3, "text": "Thanks"}
                ]}
                """#)
        ),
        // A type change inside a nested array: an amount became a string.
        (
            "GET /v3/orders/1001",
            decoding(
                Order.self,
                #"""
                {"id": "ord_1001", "lines": [
                  {"sku": "A-1", "quantity": 1, "prices": [{"currency": "EUR", "amount": 9.5}]},
                  {"sku": "B-2", "quantity": 2, "prices": [{"currency": "EUR", "amount": "12,00"}]}
                ]}
                """#)
        ),
    ]
}
