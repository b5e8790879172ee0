import DecodeWatchContracts
import DecodeWatchCore
import Foundation
import Testing

/// Reading OpenAPI documents: both versions and both syntaxes, and one clear error naming the place otherwise.
@Suite("OpenAPI contract reader")
struct OpenAPIContractReaderTests {
    @Test("a 3.1 JSON document reads like its YAML twin")
    func json31() throws {
        let json = """
            {"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
             "paths": {"/a": {"get": {"responses": {"200": {"description": "ok",
               "content": {"application/json": {"schema": {"type": "object", "required": ["x"],
                 "properties": {"x": {"type": ["integer", "null"], "format": "int64"}}}}}}}}}}}
            """
        let spec = try OpenAPIContractReader.read(Data(json.utf8), source: "openapi.json")
        #expect(spec.openapi == "3.1.0")
        #expect(spec.operations.map(\.name) == ["GET /a"])
        let mapping = ContractMapper(name: "t", spec: spec).map(endpoint: "GET /a", path: "$.x")
        #expect(mapping.outcome == .described)
        #expect(mapping.view.required == true)
        #expect(mapping.view.nullable == true)
        #expect(mapping.view.types == ["integer"])
        #expect(mapping.view.format == "int64")
    }

    @Test(
        "a document that cannot be read gets one error naming the file and the place",
        arguments: [
            (
                """
                openapi: 3.0.3
                info: {title: T, version: "1"}
                paths:
                  /repos/{owner}/{repo}/issues:
                    get:
                      responses:
                        "200":
                          description: ok
                          content: {application/json: {schema: {$ref: '#/components/schemas/Isue'}}}
                components: {schemas: {Issue: {type: object}}}
                """,
                "openapi.yaml: paths./repos/{owner}/{repo}/issues.get.responses.200.content.application/json.schema: "
                    + "$ref '#/components/schemas/Isue' does not exist in this document."
            ),
            (
                "swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {}\n",
                "openapi.yaml: Swagger 2.0 is not supported"
            ),
            (
                "openapi: 4.0.0\ninfo: {title: T, version: '1'}\npaths: {}\n",
                "openapi.yaml: openapi '4.0.0' is not supported"
            ),
            ("openapi: [3.0\n  info", "openapi.yaml: the file is not valid YAML or JSON"),
            ("title: nothing\n", "openapi.yaml: the document has no 'openapi' version field"),
            ("openapi: 3.0.3\npaths: {}\n", "openapi.yaml: "),
        ])
    func rejection(document: String, message: String) {
        let error = #expect(throws: ContractImportError.self) {
            try OpenAPIContractReader.read(Data(document.utf8), source: "openapi.yaml")
        }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("\n") == false)
    }
}
