/// Decides whether a key names personal data or a credential, for ``Redactor``.
///
/// Keys are compared in a folded form (ASCII lower case, without `_`, `-`, `.` and spaces) so that
/// `api_key`, `apiKey`, `API-KEY` and `x-api-key` all contain the fragment `apikey`. Long fragments
/// match anywhere in the folded key, because credentials come in more spellings than anyone can list
/// (`accessToken`, `csrftoken`, `temp_clone_token`). Fragments of ``wordLength`` characters or fewer
/// must instead be a whole word of the key, split at punctuation and camel case: as substrings
/// `auth`, `pin` and `ssn` would hit `author`, `shipping` and `className`.
struct SensitiveKeyMatcher: Sendable {
    /// Fragments at most this long match whole words only.
    static let wordLength = 4

    /// Folded fragments matched anywhere in the folded key.
    private let substrings: [[UInt8]]
    /// Folded fragments matched against the key's words.
    private let words: [[UInt8]]

    init(fragments: [String]) {
        let folded = Set(fragments.map { Self.fold(Array($0.utf8)) }).filter { !$0.isEmpty }.sorted {
            $0.count < $1.count
        }
        substrings = folded.filter { $0.count > Self.wordLength }
        words = folded.filter { $0.count <= Self.wordLength }
    }

    /// Whether values under a key (given as UTF-8 bytes) are redacted.
    ///
    /// Runs for every key of every snippet, so it works in place on a stack buffer, without allocating.
    func matches(_ key: some Collection<UInt8>) -> Bool {
        // Keys longer than this are not keys but text caught by a scanner; a fragment never hides there.
        guard !key.isEmpty, key.count <= Self.maxKeyLength else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxKeyLength * 2) { buffer in
            let raw = UnsafeMutableBufferPointer(rebasing: buffer[..<key.count])
            _ = raw.initialize(from: key)
            var foldedCount = 0
            for byte in raw where !Self.isSeparator(byte) {
                buffer[Self.maxKeyLength + foldedCount] = Self.isUpper(byte) ? byte | 0x20 : byte
                foldedCount += 1
            }
            let folded = UnsafeBufferPointer(rebasing: buffer[Self.maxKeyLength..<(Self.maxKeyLength + foldedCount)])
            if substrings.contains(where: { Self.contains(folded, $0) }) { return true }
            guard !words.isEmpty else { return false }
            var found = false
            Self.forEachWord(in: UnsafeBufferPointer(raw)) { word in
                if !found { found = words.contains { Self.equalIgnoringCase(word, $0) } }
            }
            return found
        }
    }

    /// Longest key looked at.
    static let maxKeyLength = 256

    /// ASCII lower case, without the separators people put between the words of a key.
    static func fold(_ bytes: [UInt8]) -> [UInt8] {
        bytes.filter { !isSeparator($0) }.map { isUpper($0) ? $0 | 0x20 : $0 }
    }

    /// Calls `body` with each word of a key: runs of letters and runs of digits, split at anything
    /// else and at camel case (`cardPIN` → `card`, `PIN`; `XMLToken` → `XML`, `Token`).
    static func forEachWord(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Slice<UnsafeBufferPointer<UInt8>>) -> Void) {
        var start: Int?
        for offset in bytes.indices {
            let byte = bytes[offset]
            let upper = isUpper(byte)
            let digit = isDigit(byte)
            guard upper || digit || isLower(byte) else {
                if let first = start { body(bytes[first..<offset]) }
                start = nil
                continue
            }
            if let first = start {
                let previous = bytes[offset - 1]
                let next = offset + 1 < bytes.count ? bytes[offset + 1] : 0
                let camel = upper && isLower(previous)
                let acronymEnd = upper && isUpper(previous) && isLower(next)
                if camel || acronymEnd || digit != isDigit(previous) {
                    body(bytes[first..<offset])
                    start = offset
                }
            } else {
                start = offset
            }
        }
        if let first = start { body(bytes[first..<bytes.count]) }
    }

    private static func equalIgnoringCase(_ word: Slice<UnsafeBufferPointer<UInt8>>, _ fragment: [UInt8]) -> Bool {
        word.count == fragment.count && zip(word, fragment).allSatisfy { (isUpper($0) ? $0 | 0x20 : $0) == $1 }
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: " ")
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count, let first = needle.first else { return false }
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var offset = 1
                while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    private static func isUpper(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
    private static func isLower(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
