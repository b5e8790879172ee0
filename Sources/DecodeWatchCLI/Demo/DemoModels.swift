import DecodeWatch
import Foundation

// The models of a small app, written as an app would write them with the DecodeWatch SDK.

struct PostsPage: Decodable {
    let results: [Safe<Post>]
}

struct Post: Decodable {
    let id: Id<Post>
    let title: String
    let author: Author
    let link: URL
}

struct Author: Decodable {
    let name: String
    let followers: Int
}

struct Device: Decodable {
    let id: Id<Device>
    let system: DeviceSystem
    let name: String
}

enum DeviceSystem: String, SafeEnum {
    case iOS, android, unknown
}

struct CommentsPage: Decodable {
    @SafeArray var comments: [Comment]
}

struct Comment: Decodable {
    let id: Int
    let text: String
}

struct Order: Decodable {
    let id: Id<Order>
    let lines: [Safe<OrderLine>]
}

struct OrderLine: Decodable {
    let sku: String
    let quantity: Int
    let prices: [Price]
}

struct Price: Decodable {
    let currency: String
    let amount: Double
}
