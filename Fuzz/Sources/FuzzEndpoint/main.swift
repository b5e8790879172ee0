import DecodeWatchCore
import Foundation
import FuzzDriver

// Any text as a report's endpoint, and as an operator's route template: normalizing must not crash, and
// a normalized endpoint must be its own normal form, or one group would split in two on a re-send.
let template = RouteTemplate("GET /v2/users/{login}/posts/{id}")!

runFuzzer { bytes in
    let text = String(decoding: bytes, as: UTF8.self)
    let templates = [template] + (RouteTemplate(text).map { [$0] } ?? [])
    for normalizer in [EndpointNormalizer(), EndpointNormalizer(templates: templates)] {
        guard let normalized = normalizer.normalize(text) else { continue }
        guard normalizer.normalize(normalized) == normalized else {
            fatalError(
                "\(text.debugDescription) normalizes to \(normalized.debugDescription), which normalizes further")
        }
    }
}
