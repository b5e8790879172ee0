private typealias Text = DecodingErrorText

extension RealisticEndpoint {
    /// `POST /v2/carts/{id}/items`, sent with a 24-hex cart id and a trailing slash.
    static let carts = RealisticEndpoint(
        raw: { "POST /v2/carts/\(hex($0.bits(32), 8))\(hex($0.bits(64), 16))/items/" },
        type: "CartResponse",
        shapes: [
            FailureShape(
                path: [.key("cart"), .key("items"), .index, .key("quantity")], kind: "typeMismatch", expected: "Int",
                message: { _ in Text.mismatch("Int") },
                snippet: { Text.snippet(&$0, "quantity") { JSONText.string(String($0.int(1..<9))) } }),
            FailureShape(
                path: [.key("cart"), .key("items"), .index, .key("product"), .key("id")], kind: "keyNotFound",
                expected: "String", message: { _ in Text.missingKey("id") },
                snippet: { JSONText.object(["productId": JSONText.string("p_\($0.int(0..<1_000_000))")]) }),
            FailureShape(
                path: [.key("cart"), .key("subtotal")], kind: "valueNotFound", expected: "Double",
                message: { _ in Text.null("Double") }, snippet: { Text.snippet(&$0, "subtotal", "null") }),
            FailureShape(
                path: [.key("cart"), .key("currency")], kind: "unknownValue", expected: "Currency",
                message: { Text.unknown("Currency", $0.pick(["CHF", "PLN", "SEK"])) },
                snippet: { Text.snippet(&$0, "currency") { JSONText.string($0.pick(["CHF", "PLN", "SEK"])) } }),
            FailureShape(
                path: [.key("cart"), .key("items"), .index, .key("variant"), .key("size")], kind: "keyNotFound",
                expected: "String", message: { _ in Text.missingKey("size") },
                snippet: { Text.snippet(&$0, "sizes", "[\"S\",\"M\"]") }),
            FailureShape(
                path: [.key("cart"), .key("promotions"), .hexKey, .key("label")], kind: "typeMismatch",
                expected: "String", message: { _ in Text.mismatch("String", found: "a dictionary") },
                snippet: {
                    Text.snippet(&$0, "label") { JSONText.object(["en": JSONText.string("Promo \($0.int(0..<100))")]) }
                }),
            FailureShape(
                path: [.key("cart"), .key("updated_at")], kind: "dataCorrupted", expected: "Date",
                message: { _ in Text.notISO8601 },
                snippet: { Text.snippet(&$0, "updated_at") { String($0.int(1_000_000_000..<2_000_000_000)) } }),
            FailureShape(
                path: [.key("errors"), .index, .key("field")], kind: "keyNotFound", expected: "String",
                message: { _ in Text.missingKey("field") },
                snippet: {
                    JSONText.object([
                        "message": JSONText.string("token abc\($0.int(0..<10000)) expired"),
                        "token": JSONText.string("tok_\(hex($0.bits(64), 16))"),
                    ])
                }),
            FailureShape(
                path: [.key("cart"), .key("items"), .index, .key("price"), .key("amount")], kind: "typeMismatch",
                expected: "Decimal", message: { _ in Text.mismatch("Decimal") },
                snippet: {
                    Text.snippet(&$0, "amount") { JSONText.string("\($0.int(0..<100)).\(decimal($0.int(0..<100), 2))") }
                }),
            FailureShape(
                path: [.key("cart"), .key("shipping")], kind: "valueNotFound", expected: "Shipping",
                message: { _ in Text.null("Shipping") }, snippet: { Text.snippet(&$0, "shipping", "null") }),
        ])
}
