// The collector's domain speaks the wire model: whoever imports DecodeWatchCore sees it too.
@_exported import DecodeWatchWire
