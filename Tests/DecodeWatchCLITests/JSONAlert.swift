import Foundation

/// A JSON alert as a webhook receives it (schemas/alert.v1.schema.json), as far as the tests read it.
struct JSONAlert: Decodable {
    /// Whether it is the sample `decodewatch alerts test` sends.
    let test: Bool
    /// The groups that fired the rule, listed or not.
    let total: Int
    let rule: Rule
    /// The groups listed.
    let fields: [Field]

    struct Rule: Decodable {
        let environment: String?
    }

    struct Field: Decodable {
        /// The group's page, or `null` without a public URL.
        let url: String?
    }
}
