/// Slack's text escaping, shared by everything the collector posts to a Slack-compatible webhook.
public enum SlackText {
    /// Text with Slack's control characters escaped (`&`, `<`, `>`), so no app-controlled string in it
    /// (an app version, an endpoint, a path) can mention a channel (`<!channel>`) or forge a link.
    public static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
