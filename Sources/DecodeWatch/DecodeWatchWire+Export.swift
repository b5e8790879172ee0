// An app imports DecodeWatch alone: the configuration and report types it names (AppInfo, Report,
// ReportKind, Redactor, …) come from the wire model shared with the collector.
@_exported import DecodeWatchWire
