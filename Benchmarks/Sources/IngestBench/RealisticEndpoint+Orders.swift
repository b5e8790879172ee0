private typealias Text = DecodingErrorText

extension RealisticEndpoint {
    /// `GET /v1/orders/{id}`, sent as a full URL with a UUID in either case.
    static let orders = RealisticEndpoint(
        raw: { "GET https://api.example.com/v1/orders/\($0.uuid(uppercase: $0.unit() < 0.5))" },
        type: "Order",
        shapes: [
            FailureShape(
                path: [.key("order"), .key("status")], kind: "unknownValue", expected: "OrderStatus",
                message: { Text.unknown("OrderStatus", $0.pick(["on_hold", "split"])) },
                snippet: { Text.snippet(&$0, "status") { JSONText.string($0.pick(["on_hold", "split"])) } }),
            FailureShape(
                path: [.key("order"), .key("items"), .index, .key("price")], kind: "typeMismatch", expected: "Decimal",
                message: { _ in Text.mismatch("Decimal") },
                snippet: {
                    Text.snippet(&$0, "price") {
                        JSONText.string("\($0.int(0..<200)).\(decimal($0.int(0..<100), 2)) EUR")
                    }
                }),
            FailureShape(
                path: [.key("order"), .key("items"), .index, .key("sku")], kind: "keyNotFound", expected: "String",
                message: { _ in Text.missingKey("sku") },
                snippet: { Text.snippet(&$0, "SKU") { JSONText.string("SKU-\(decimal($0.int(0..<1_000_000), 6))") } }),
            FailureShape(
                path: [.key("order"), .key("shipping"), .key("eta")], kind: "dataCorrupted", expected: "Date",
                message: { _ in Text.notISO8601 }, snippet: { Text.snippet(&$0, "eta", "\"tomorrow\"") }),
            FailureShape(
                path: [.key("order"), .key("customer"), .key("email")], kind: "valueNotFound", expected: "String",
                message: { _ in Text.null("String") },
                snippet: {
                    JSONText.object([
                        "name": JSONText.string("Customer \($0.int(0..<10000))"), "email": "null",
                        "contact": JSONText.string("user\($0.int(0..<1_000_000))@example.com"),
                    ])
                }),
            FailureShape(
                path: [.key("order"), .key("discounts"), .index, .key("code")], kind: "keyNotFound", expected: "String",
                message: { _ in Text.missingKey("code") },
                snippet: { Text.snippet(&$0, "coupon") { JSONText.string("SAVE\($0.int(5..<50))") } }),
            FailureShape(
                path: [.key("order"), .key("payments"), .uuidKey, .key("amount")], kind: "typeMismatch",
                expected: "Double", message: { _ in Text.mismatch("Double") },
                snippet: {
                    JSONText.object([
                        "amount": JSONText.string("\($0.int(0..<500)),\(decimal($0.int(0..<100), 2))"),
                        "card": JSONText.string("4111 1111 1111 \(decimal($0.int(0..<10000), 4))"),
                    ])
                }),
            FailureShape(
                path: [.key("order"), .key("total")], kind: "typeMismatch", expected: "Double",
                message: { _ in Text.mismatch("Double") },
                snippet: {
                    Text.snippet(&$0, "total") { JSONText.string("\($0.int(0..<1000)).\(decimal($0.int(0..<100), 2))") }
                }),
            FailureShape(
                path: [.key("order"), .key("items"), .index, .key("image"), .key("url")], kind: "other",
                expected: "URL", message: { _ in "The data couldn't be read." },
                snippet: { Text.snippet(&$0, "url", "\"\"") }),
            FailureShape(
                path: [.key("order"), .key("notes")], kind: "typeMismatch", expected: "String",
                message: { _ in Text.mismatch("String", found: "an array") },
                snippet: { Text.snippet(&$0, "notes", "[\"leave at door\"]") }),
        ])
}
