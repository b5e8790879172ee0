import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatch

/// The same failure gets the same report whichever Foundation threw it: a `DecodingError` (swift-foundation, and
/// Apple's Foundation on every iOS), or that error as an `NSError` the way Apple's Foundation bridges it (as on iOS
/// 15 and 16 when an error crosses Objective-C), with the debug descriptions of either implementation.
@Suite struct BridgedErrorTests {
    struct Item: Decodable {
        let n: Int
    }

    /// The `DecodingError` this platform's `JSONDecoder` throws for an object.
    static func decodingError(_ json: String) throws -> DecodingError {
        do {
            _ = try JSONDecoder().decode([Item].self, from: Data("[{\"n\": 1}, \(json)]".utf8))
        } catch let error as DecodingError {
            return error
        }
        throw CancellationError()
    }

    /// A `DecodingError` as Apple's Foundation bridges it to `NSError`: typeMismatch and dataCorrupted are 4864,
    /// keyNotFound and valueNotFound 4865, with the context's path and description in the user info.
    static func bridged(_ error: DecodingError) -> NSError {
        let (code, context): (CocoaError.Code, DecodingError.Context)
        switch error {
        case .typeMismatch(_, let c): (code, context) = (.coderReadCorrupt, c)
        case .dataCorrupted(let c): (code, context) = (.coderReadCorrupt, c)
        case .keyNotFound(_, let c): (code, context) = (.coderValueNotFound, c)
        case .valueNotFound(_, let c): (code, context) = (.coderValueNotFound, c)
        @unknown default: fatalError("a DecodingError case this test does not know")
        }
        return NSError(
            domain: NSCocoaErrorDomain, code: code.rawValue,
            userInfo: ["NSCodingPath": context.codingPath, NSDebugDescriptionErrorKey: context.debugDescription])
    }

    static let breakages: [(name: String, object: String, kind: ReportKind)] = [
        ("a string for an Int", #"{"n": "seven"}"#, .typeMismatch),
        ("null for an Int", #"{"n": null}"#, .valueNotFound),
        ("the key missing", #"{}"#, .keyNotFound),
    ]

    @Test("a DecodingError and its NSError form give the same report", arguments: breakages.indices)
    func sameReport(breakage: Int) throws {
        let (name, object, kind) = Self.breakages[breakage]
        let error = try Self.decodingError(object)
        let direct = DecodeFailure(error: error, position: [1], wrapped: Item.self)
        let viaNSError = DecodeFailure(error: Self.bridged(error), position: [1], wrapped: Item.self)
        #expect(direct.kind == kind, "\(name)")
        #expect(direct.path == [1, "n"], "\(name)")
        #expect(viaNSError == direct, "\(name)")
    }

    /// Errors in the NSError form with the debug descriptions of Apple's Foundation before iOS 17, and what they
    /// must be read as.
    static let appleFoundation: [(code: CocoaError.Code, description: String, kind: ReportKind, expected: String?)] = [
        (.coderReadCorrupt, "Expected to decode Int but found a string/data instead.", .typeMismatch, "Int"),
        (.coderValueNotFound, "Expected Int value but found null instead.", .valueNotFound, "Int"),
        (.coderReadCorrupt, "Parsed JSON number <42.5> does not fit in Int.", .dataCorrupted, nil),
    ]

    @Test(
        "Apple's older debug descriptions are read to the same kind and expected type",
        arguments: appleFoundation.indices)
    func appleDescriptions(index: Int) {
        let (code, description, kind, expected) = Self.appleFoundation[index]
        let path: [any CodingKey] = [AnyKey(index: 3), AnyKey("user"), AnyKey("id")]
        let error = NSError(
            domain: NSCocoaErrorDomain, code: code.rawValue,
            userInfo: ["NSCodingPath": path, NSDebugDescriptionErrorKey: description])
        let failure = DecodeFailure(error: error, position: [3], wrapped: Int.self)
        #expect(failure.kind == kind)
        #expect(failure.path == [3, "user", "id"])
        #expect(failure.expected == expected)
        #expect(failure.message == description)
    }

    @Test("a missing key in the NSError form is appended to the path, as a DecodingError's key is")
    func bridgedMissingKey() {
        let error = NSError(
            domain: NSCocoaErrorDomain, code: CocoaError.Code.coderValueNotFound.rawValue,
            userInfo: [
                "NSCodingPath": [AnyKey(index: 0), AnyKey("user")] as [any CodingKey],
                NSDebugDescriptionErrorKey:
                    #"No value associated with key CodingKeys(stringValue: "login", intValue: nil) ("login")."#,
            ])
        let failure = DecodeFailure(error: error, position: [0], wrapped: Item.self)
        #expect(failure.kind == .keyNotFound)
        #expect(failure.path == [0, "user", "login"])
        #expect(failure.expected == nil)
    }

    @Test("Foundation's JSON syntax error (3840) is dataCorrupted at the wrapper's position")
    func syntaxError() {
        let error = NSError(
            domain: NSCocoaErrorDomain, code: CocoaError.Code.propertyListReadCorrupt.rawValue,
            userInfo: [NSDebugDescriptionErrorKey: "Unexpected character 'x' around line 1, column 9."])
        let failure = DecodeFailure(error: error, position: [2, "body"], wrapped: Item.self)
        #expect(failure.kind == .dataCorrupted)
        #expect(failure.path == [2, "body"])
        #expect(failure.expected == "Item")
    }

    @Test("an error the app throws, Cocoa or not, that is no decoding failure is kind other")
    func appError() {
        struct Refused: Error {}
        for error in [Refused() as any Error, CocoaError(.fileReadNoPermission), URLError(.timedOut)] {
            let failure = DecodeFailure(error: error, position: [4], wrapped: Item.self)
            #expect(failure.kind == .other, "\(error)")
            #expect(failure.path == [4])
        }
    }
}

/// A coding key built by hand, as Foundation's own keys are.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) { (stringValue, intValue) = (string, nil) }
    init(index: Int) { (stringValue, intValue) = ("Index \(index)", index) }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}
