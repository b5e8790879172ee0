@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// How the payload spelled the keys a decoder turned into Swift names, so that reports name the keys
/// the backend sent (`created_at`), not the app's properties (`createdAt`).
enum JSONKeySpelling: Sendable {
    /// Keys are used as they are (`useDefaultKeys`, or a custom strategy that cannot be undone).
    case asDecoded
    /// The decoder converted snake_case keys to camelCase (`convertFromSnakeCase`).
    case snakeCase

    /// The spelling a decoding strategy undoes.
    init(_ strategy: KeyDecoding) {
        self = strategy == .convertFromSnakeCase ? .snakeCase : .asDecoded
    }

    /// A path with every key spelled as in the payload.
    func payloadPath(_ path: [PathElement]) -> [PathElement] {
        guard self == .snakeCase else { return path }
        return path.map { element in
            if case .key(let key) = element { return .key(Self.snakeCased(key)) }
            return element
        }
    }

    /// A value re-read through the decoder, with its object keys spelled as in the payload.
    func payloadValue(_ value: JSONValue) -> JSONValue {
        guard self == .snakeCase else { return value }
        switch value {
        case .object(let object):
            var result = [String: JSONValue](minimumCapacity: object.count)
            for (key, child) in object { result[Self.snakeCased(key)] = payloadValue(child) }
            return .object(result)
        case .array(let array):
            return .array(array.map(payloadValue))
        default:
            return value
        }
    }

    /// `createdAt` → `created_at`, `htmlURL` → `html_url`, `URLValue` → `url_value`: a new word starts
    /// at an upper-case letter after a lower-case letter or digit, and at the last upper-case letter of
    /// a run followed by a lower-case one. Leading underscores stay, as the decoder leaves them.
    static func snakeCased(_ name: String) -> String {
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord =
                    previous.isLowercase || previous.isNumber
                    || (previous.isUppercase && next?.isLowercase == true)
                if startsWord, previous != "_" { result.append("_") }
            }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }
}
