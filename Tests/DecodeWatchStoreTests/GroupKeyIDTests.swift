import DecodeWatchCore
import DecodeWatchStore
import Testing

@Suite("Group ids")
struct GroupKeyIDTests {
    @Test("the same key always gives the same 128-bit SHA-256 id, and different keys, apps included, differ")
    func stableIDs() {
        let key = GroupKey(
            app: "com.example.shop", endpoint: "GET /v2/posts", path: "$.results[*].title", kind: .keyNotFound)
        // printf 'com.example.shop\0GET /v2/posts\0$.results[*].title\0keyNotFound\0' | sha256sum | cut -c1-32
        #expect(key.id == "536eb0f2dec751625bb5cbf4b79f4d82")
        #expect(
            key.id
                == GroupKey(
                    app: "com.example.shop", endpoint: "GET /v2/posts", path: "$.results[*].title", kind: .keyNotFound
                ).id)
        var other = key
        other.kind = .typeMismatch
        #expect(other.id != key.id)
        other = key
        other.app = "com.example.news"
        #expect(other.id != key.id)
        // Parts are separated, so shifting text between parts changes the id.
        let shifted = GroupKey(
            app: "com.example.shopGET", endpoint: " /v2/posts", path: "$.results[*].title", kind: .keyNotFound)
        #expect(shifted.id != key.id)
    }
}
