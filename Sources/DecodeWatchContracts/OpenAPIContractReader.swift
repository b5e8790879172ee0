import DecodeWatchCore
import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Yams

/// Reads an OpenAPI 3.0 or 3.1 document, YAML or JSON, into the contract DecodeWatch stores.
///
/// Both versions are decoded by OpenAPIKit; a 3.0 document is converted to the 3.1 model with
/// OpenAPIKitCompat (`nullable: true` becomes the same nullability a 3.1 `type: [.., "null"]` has), so
/// ``ContractTranslator`` reads one model only. Nothing is stored here: a document that fails fails whole.
public enum OpenAPIContractReader {
    /// Reads a document.
    /// - Parameters:
    ///   - data: the document's bytes.
    ///   - source: its file name, the first word of every error.
    /// - Returns: the resolved contract.
    /// - Throws: ``ContractImportError`` naming the place that cannot be read.
    public static func read(_ data: Data, source: String) throws(ContractImportError) -> ContractSpec {
        guard let text = String(data: data, encoding: .utf8) else {
            throw ContractImportError("\(source): the file is not UTF-8 text.")
        }
        let declared: String
        do {
            let head = try YAMLDecoder().decode(Head.self, from: text)
            if head.swagger != nil {
                throw ContractImportError(
                    "\(source): Swagger 2.0 is not supported; convert it to OpenAPI 3 first (e.g. with swagger2openapi)."
                )
            }
            guard let version = head.openapi else {
                throw ContractImportError(
                    "\(source): the document has no 'openapi' version field; is it an OpenAPI 3 document?")
            }
            declared = version
        } catch let error as ContractImportError {
            throw error
        } catch {
            throw ContractImportError("\(source): \(Self.describe(yaml: error))")
        }
        let document: OpenAPIKit.OpenAPI.Document
        do {
            if declared.hasPrefix("3.0") {
                document = try YAMLDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: text).convert(to: .v3_1_0)
            } else if declared.hasPrefix("3.1") {
                document = try YAMLDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: text)
            } else {
                throw ContractImportError("\(source): openapi '\(declared)' is not supported; use 3.0.x or 3.1.x.")
            }
        } catch let error as ContractImportError {
            throw error
        } catch {
            let readable = OpenAPIKit.OpenAPI.Error(from: error)
            throw ContractImportError("\(source): \(readable.localizedDescription)")
        }
        return try ContractTranslator(document: document, source: source, declaredVersion: declared).translate()
    }

    /// The fields that tell which OpenAPI version a document is.
    private struct Head: Decodable {
        var openapi: String?
        var swagger: String?
    }

    /// A YAML error as "line 3, column 5: …", or what Yams said.
    private static func describe(yaml error: any Error) -> String {
        var underlying: any Error = error
        if case DecodingError.dataCorrupted(let context) = error, let cause = context.underlyingError {
            underlying = cause
        }
        if let yaml = underlying as? YamlError {
            return "the file is not valid YAML or JSON: \(yaml)".replacingOccurrences(of: "\n", with: " ")
        }
        if error is DecodingError {
            return "the document is not an object with an 'openapi' field."
        }
        return "the file cannot be read: \(error)"
    }
}
