import Foundation
import Mustache

/// The dashboard's Mustache templates, read once from the `Templates` resource folder.
///
/// SwiftPM puts the folder in `decodewatch_DecodeWatchServer.resources` next to the executable; an
/// install copies that folder along with the binary (see deploy/). SwiftPM's `Bundle.module` would stop
/// the process when the folder is missing, so it is looked up here instead: next to the executable,
/// then in the source tree (a development checkout). Without templates the collector still runs and
/// the dashboard answers 503 saying what is missing.
struct DashboardTemplates: Sendable {
    /// The templates, or why there are none.
    let library: Result<MustacheLibrary, DashboardUnavailable>

    /// The folder SwiftPM copies the resources to, beside the executable.
    static let bundleName = "decodewatch_DecodeWatchServer.resources"

    /// The templates of the first folder found.
    static let shared = DashboardTemplates(folders: candidateFolders())

    static func candidateFolders() -> [URL] {
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        return [
            Bundle.main.bundleURL.appendingPathComponent(bundleName).appendingPathComponent("Templates"),
            executable.deletingLastPathComponent().appendingPathComponent(bundleName)
                .appendingPathComponent("Templates"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Templates"),
        ]
    }

    init(folders: [URL]) {
        guard let folder = folders.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            library = .failure(
                DashboardUnavailable(
                    "The dashboard's templates are missing: install the folder \(Self.bundleName) "
                        + "next to the decodewatch executable."))
            return
        }
        var library = MustacheLibrary()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        do {
            for name in names.sorted() where name.hasSuffix(".mustache") {
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                try library.register(text, named: String(name.dropLast(".mustache".count)))
            }
            self.library = .success(library)
        } catch {
            self.library = .failure(
                DashboardUnavailable("A dashboard template in \(folder.path) is unusable: \(error)"))
        }
    }

    /// Renders a view with a template.
    /// - Throws: ``DashboardUnavailable`` when the templates could not be loaded or one is missing.
    func render(_ view: Any, _ template: String) throws(DashboardUnavailable) -> String {
        let library = try library.get()
        guard let html = library.render(view, withTemplate: template) else {
            throw DashboardUnavailable("The dashboard template \(template) is missing.")
        }
        return html
    }
}

/// Why the dashboard cannot render pages; the collector's other routes are unaffected.
struct DashboardUnavailable: Error, Sendable {
    let message: String

    init(_ message: String) { self.message = message }
}
