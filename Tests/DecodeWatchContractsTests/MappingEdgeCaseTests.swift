import DecodeWatchContracts
import DecodeWatchCore
import Foundation
import Testing

/// How groups map onto a spec and which verdict follows, for the edge cases of OpenAPI 3.0 and 3.1.
@Suite("Contract mapping and verdicts")
struct MappingEdgeCaseTests {
    static let spec30 = """
        openapi: 3.0.3
        info: {title: Shop, version: "5"}
        servers: [{url: "https://api.example.com/v2"}]
        paths:
          /posts:
            get:
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [results]
                        properties:
                          results: {type: array, items: {$ref: '#/components/schemas/Post'}}
                          users: {type: object, additionalProperties: {$ref: '#/components/schemas/User'}}
                          extra: {type: object}
          /posts/{slug}:
            get:
              responses:
                "200": {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Post'}}}}
          /posts/latest:
            get:
              responses:
                "200": {description: ok, content: {application/json: {schema: {type: array, items: {type: string}}}}}
          /empty:
            delete:
              responses:
                "204": {description: gone}
        components:
          schemas:
            Post:
              allOf:
                - $ref: '#/components/schemas/Base'
                - type: object
                  required: [title, state]
                  properties:
                    title: {type: string}
                    subtitle: {type: string, nullable: true}
                    state: {type: string, enum: [open, closed]}
                    score: {type: number}
                    views: {type: integer}
                    author:
                      nullable: true
                      allOf: [{$ref: '#/components/schemas/User'}]
                    replies: {type: array, items: {$ref: '#/components/schemas/Post'}}
            Base:
              type: object
              required: [id]
              properties:
                id: {type: string}
                note: {type: string}
            User:
              oneOf:
                - type: object
                  required: [login, email]
                  properties: {login: {type: string}, email: {type: string, format: email}}
                - type: object
                  required: [login]
                  properties: {login: {type: string}, email: {type: string}}
        """

    static let spec31 = """
        openapi: 3.1.0
        info: {title: Shop, version: "5"}
        paths:
          /v2/posts/{id}:
            get:
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [title, subtitle]
                        properties:
                          title: {type: string}
                          subtitle: {type: [string, "null"]}
                          kind: {anyOf: [{type: string, enum: [a, b]}, {type: "null"}]}
                          tags: {type: object, additionalProperties: {type: integer}}
        """

    struct Case: Sendable, CustomTestStringConvertible {
        var spec: String
        var endpoint: String
        var path: String
        var kind: ReportKind
        var expected: String?
        var snippet: String?
        var verdict: DriftVerdict
        var location: String?
        var testDescription: String { "\(endpoint) \(path) \(kind.rawValue) → \(verdict.rawValue)" }
    }

    static let cases: [Case] = [
        // Required through allOf and $ref, with the servers' /v2 prefix and a wildcard to items.
        Case(
            spec: spec30, endpoint: "GET /v2/posts", path: "$.results[*].title", kind: .keyNotFound,
            verdict: .backendViolatesSpec, location: "#/components/schemas/Post/allOf/1/properties/title"),
        Case(
            spec: spec30, endpoint: "GET /v2/posts", path: "$.results[*].id", kind: .keyNotFound,
            verdict: .backendViolatesSpec, location: "#/components/schemas/Base/properties/id"),
        Case(
            spec: spec30, endpoint: "GET /v2/posts", path: "$.results[*].note", kind: .keyNotFound,
            verdict: .appStricterThanSpec),
        // `{id}` of the collector against `{slug}` of the spec; a recursive schema followed two levels.
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.replies[*].replies[*].subtitle",
            kind: .valueNotFound, verdict: .appStricterThanSpec),
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.title", kind: .valueNotFound,
            verdict: .backendViolatesSpec),
        // nullable beside allOf: [$ref].
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.author", kind: .valueNotFound,
            verdict: .appStricterThanSpec),
        // A literal path beats a template.
        Case(
            spec: spec30, endpoint: "GET /v2/posts/latest", path: "$[*]", kind: .typeMismatch, expected: "String",
            verdict: .backendViolatesSpec),
        // Types.
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.title", kind: .typeMismatch, expected: "String",
            verdict: .backendViolatesSpec),
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.title", kind: .typeMismatch, expected: "Int",
            verdict: .appStricterThanSpec),
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.score", kind: .typeMismatch, expected: "Int",
            verdict: .appStricterThanSpec),
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.views", kind: .typeMismatch, expected: "Double",
            verdict: .backendViolatesSpec),
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.title", kind: .typeMismatch, expected: "PostTitle",
            verdict: .unknown),
        // Enums.
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.state", kind: .unknownValue, expected: "State",
            snippet: "\"closed\"", verdict: .appStricterThanSpec),
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.state", kind: .unknownValue, expected: "State",
            snippet: "\"merged\"", verdict: .backendViolatesSpec),
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.state", kind: .unknownValue, expected: "State",
            snippet: nil, verdict: .unknown),
        // The object around the value, as a whole response that failed carries it: read as the suggestion reads it.
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.state", kind: .unknownValue, expected: "State",
            snippet: #"{"state":"merged","id":7}"#, verdict: .backendViolatesSpec),
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.state", kind: .unknownValue, expected: "State",
            snippet: #"{"state":"closed","id":7}"#, verdict: .appStricterThanSpec),
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.title", kind: .unknownValue, expected: "Title",
            snippet: "\"x\"", verdict: .appStricterThanSpec),
        // Id-keyed dictionaries to additionalProperties, then oneOf: required only when every alternative requires it.
        Case(
            spec: spec30, endpoint: "GET /v2/posts", path: "$.users[*].login", kind: .keyNotFound,
            verdict: .backendViolatesSpec),
        Case(
            spec: spec30, endpoint: "GET /v2/posts", path: "$.users[*].email", kind: .keyNotFound,
            verdict: .appStricterThanSpec),
        // Not in spec: an operation, a key, a free-form object, a response without a body.
        Case(spec: spec30, endpoint: "GET /v2/comments", path: "$.id", kind: .keyNotFound, verdict: .notInSpec),
        Case(spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.summary", kind: .keyNotFound, verdict: .notInSpec),
        Case(spec: spec30, endpoint: "GET /v2/posts", path: "$.extra.count", kind: .keyNotFound, verdict: .notInSpec),
        Case(spec: spec30, endpoint: "DELETE /v2/empty", path: "$", kind: .dataCorrupted, verdict: .notInSpec),
        // Unknown when the report cannot settle it.
        Case(spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.title", kind: .other, verdict: .unknown),
        Case(
            spec: spec30, endpoint: "GET /v2/posts/{id}", path: "$.title", kind: .dataCorrupted, expected: "URL",
            verdict: .unknown),
        Case(spec: spec30, endpoint: "GET /v2/posts", path: "$.results[*]", kind: .keyNotFound, verdict: .unknown),
        // 3.1: type arrays with "null", anyOf with a null alternative, additionalProperties maps.
        Case(
            spec: spec31, endpoint: "GET /v2/posts/{id}", path: "$.subtitle", kind: .valueNotFound,
            verdict: .appStricterThanSpec),
        Case(
            spec: spec31, endpoint: "GET /v2/posts/{id}", path: "$.subtitle", kind: .keyNotFound,
            verdict: .backendViolatesSpec),
        Case(
            spec: spec31, endpoint: "GET /v2/posts/{id}", path: "$.kind", kind: .valueNotFound,
            verdict: .appStricterThanSpec),
        Case(
            spec: spec31, endpoint: "GET /v2/posts/{id}", path: "$.kind", kind: .unknownValue, expected: "Kind",
            snippet: "\"c\"", verdict: .backendViolatesSpec),
        Case(
            spec: spec31, endpoint: "GET /v2/posts/{id}", path: "$.tags[*]", kind: .typeMismatch, expected: "Int",
            verdict: .backendViolatesSpec),
        Case(
            spec: spec31, endpoint: "GET /v2/posts/{id}", path: "$.tags.vip", kind: .typeMismatch, expected: "String",
            verdict: .appStricterThanSpec),
    ]

    @Test("each group maps to the spec's node and gets the verdict its rule gives", arguments: cases)
    func verdict(_ testCase: Case) throws {
        let spec = try OpenAPIContractReader.read(Data(testCase.spec.utf8), source: "openapi.yaml")
        let contracts = ContractSet([(app: "shop", name: "backend", spec: spec)])
        let judgement = try #require(
            contracts.judge(
                app: "shop", endpoint: testCase.endpoint, path: testCase.path,
                failure: DriftJudge.Failure(kind: testCase.kind, expected: testCase.expected, snippet: testCase.snippet)
            ))
        #expect(judgement.verdict == testCase.verdict, "\(judgement.reason)")
        #expect(!judgement.reason.isEmpty && judgement.reason.hasSuffix("."))
        if let location = testCase.location { #expect(judgement.spec?.location == location) }
        #expect(
            contracts.judge(
                app: "other", endpoint: testCase.endpoint, path: testCase.path,
                failure: .init(kind: .other, expected: nil)) == nil)
    }

    @Test(
        "rendered paths parse back into the steps they were rendered from",
        arguments: [
            "$", "$.results[*].title", "$.users[*]['e-mail']", "$['it\\'s'][*]", "$[*][*].a_b",
        ])
    func pathRoundTrip(_ path: String) throws {
        let steps = try #require(JSONPathStep.parse(path))
        #expect(JSONPathStep.render(steps) == path)
    }
}
