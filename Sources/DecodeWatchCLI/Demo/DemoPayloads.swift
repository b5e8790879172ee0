import DecodeWatch
import Foundation

/// Backend responses, clean and broken, each decoded through the SDK as an app would decode it.
enum DemoPayloads {
    /// Decodes what one session of the app sees: `cleanPerEndpoint` good responses of every endpoint
    /// and the broken ones once, so the breaking rates are a few percent, as in real life.
    static func decodeSession(with reporter: Reporter, cleanPerEndpoint: Int) {
        let decoder = JSONDecoder()
        for _ in 0..<cleanPerEndpoint {
            for (endpoint, decode) in clean { _ = try? decode(decoder, endpoint, reporter) }
        }
        for (endpoint, decode) in payloads {
            _ = try? decode(decoder, endpoint, reporter)
        }
    }

    /// Decodes the device response once more, as a newer release that breaks on it again would.
    static func decodeDevice(with reporter: Reporter) {
        _ = try? unknownSystem.1(JSONDecoder(), unknownSystem.0, reporter)
    }

    typealias Decode = @Sendable (JSONDecoder, String, Reporter) throws -> Any

    private static func decoding<T: Decodable & SendableMetatype>(_ type: T.Type, _ json: String) -> Decode {
        { decoder, endpoint, reporter in
            try decoder.decode(T.self, from: Data(json.utf8), endpoint: endpoint, reporter: reporter)
        }
    }

    /// Good responses of the same endpoints.
    static let clean: [(String, Decode)] = [
        (
            "GET /v2/posts?page=1",
            decoding(
                PostsPage.self,
                #"""
                {"results": [
                  {"id": "pos_7", "title": "Hi", "author": {"name": "Ann", "followers": 12}, "link": "https://example.com/7"},
                  {"id": "pos_8", "title": "Ho", "author": {"name": "Bob", "followers": 3}, "link": "https://example.com/8"}
                ]}
                """#)
        ),
        (
            "GET /v1/devices/1c2e3f4a-5b6c-4d7e-8f90-a1b2c3d4e5f6",
            decoding(Device.self, #"{"id": "dev_1", "system": "iOS", "name": "Bob's phone"}"#)
        ),
        (
            "GET /v1/posts/7/comments",
            decoding(CommentsPage.self, #"{"comments": [{"id": 1, "text": "Nice"}, {"id": 2, "text": "Yes"}]}"#)
        ),
        (
            "GET /v3/orders/1002",
            decoding(
                Order.self,
                #"""
                {"id": "ord_1002", "lines": [{"sku": "A-1", "quantity": 1, "prices": [{"currency": "EUR", "amount": 9.5}]}]}
                """#)
        ),
    ]

    /// A device whose system is a value the app does not know yet.
    static let unknownSystem: (String, Decode) = (
        "GET /v1/devices/8f14e45f-ceea-4e7a-9b1c-3d2f1a0b9c8d",
        decoding(Device.self, #"{"id": "dev_9", "system": "visionOS", "name": "Ann's headset"}"#)
    )

    /// Broken responses: each field that breaks, once.
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
        unknownSystem,
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
