// `import DecodeWatch` gives an app the wire types the reporter's API names: its configuration (`AppInfo`,
// `Redactor`), what it records and reads back (`Report`, `ReportKind`, `KeyDecoding`, `PathElement`,
// `DecodeCount`) and what its events carry (`Rejection`). The rest of the wire model, shared with the collector,
// stays out of the app's namespace.
@_exported import struct DecodeWatchWire.AppInfo
@_exported import struct DecodeWatchWire.DecodeCount
@_exported import enum DecodeWatchWire.KeyDecoding
@_exported import enum DecodeWatchWire.PathElement
@_exported import struct DecodeWatchWire.Redactor
@_exported import struct DecodeWatchWire.Rejection
@_exported import struct DecodeWatchWire.Report
@_exported import enum DecodeWatchWire.ReportKind
