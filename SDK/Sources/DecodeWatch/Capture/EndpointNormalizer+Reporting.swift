@_spi(WireInternals) import DecodeWatchWire

extension EndpointNormalizer {
    /// The endpoint for a placeholder when nothing of the text can be used.
    static let unknownEndpoint = "UNKNOWN /"

    /// An endpoint the collector always accepts, so that no report is refused for how the app named it.
    ///
    /// `"METHOD /path"` (or `"METHOD https://host/path"`) is normalized as usual. Text without a method,
    /// such as a URL's `absoluteString`, keeps its path under the method `UNKNOWN`
    /// (`UNKNOWN /v2/posts/{id}`); anything else becomes ``unknownEndpoint``.
    func reportingForm(of endpoint: String) -> String {
        normalize(endpoint) ?? normalize("UNKNOWN " + endpoint) ?? Self.unknownEndpoint
    }
}
