import ArgumentParser
import DecodeWatchContracts
import DecodeWatchCore
import DecodeWatchStore
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch contracts`: the OpenAPI specs each app's breaking fields are judged against.
    struct Contracts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import, list and remove the OpenAPI contracts breaking fields are judged against.",
            discussion: """
                Each import of a name is a new version; the latest version judges every group of the app \
                (`decodewatch drift`, GET /v1/drift). OpenAPI 3.0 and 3.1, YAML or JSON.
                """,
            subcommands: [Import.self, List.self, Remove.self])

        /// `decodewatch contracts import FILE --app A [--name N]`.
        struct Import: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Read an OpenAPI document and store it as the app's contract (a new version).")
            @Argument(help: "The OpenAPI 3.0 or 3.1 document, YAML or JSON.") var file: String
            @Option(help: "The app id (bundle id) whose contract it is.") var app: String
            @Option(help: "The contract's name; a new import of a name replaces it. Default: the file's name.")
            var name: String?
            @OptionGroup var store: StoreOptions
            @OptionGroup var databaseOnly: DatabaseOnlyOptions
            @Flag(help: StoreOptions.createHelp) var create = false

            func validate() throws {
                guard !app.isEmpty else { throw ValidationError("--app must not be empty.") }
                if let name, name.isEmpty { throw ValidationError("--name must not be empty.") }
            }

            func run() async throws {
                let url = URL(fileURLWithPath: file)
                let data: Data
                do {
                    data = try Data(contentsOf: url)
                } catch {
                    throw ValidationError("\(file): the file cannot be read; check the path.")
                }
                let spec = try OpenAPIContractReader.read(data, source: url.lastPathComponent)
                let contractName = name ?? url.deletingPathExtension().lastPathComponent
                let info = ContractInfo(
                    app: app, name: contractName, source: file, spec: spec, at: Date(), by: LocalActor.name)
                try await store.withStore(createFlag: create) { try await $0.insertContract(info, spec: spec) }
                print(
                    "Imported '\(contractName)' for \(app): \(spec.title) \(spec.version), OpenAPI \(spec.openapi), "
                        + "\(spec.operations.count) operations (version \(RFC3339.string(from: info.importedAt))).")
            }
        }

        /// `decodewatch contracts list [--app A]`.
        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List stored contracts, every version.")
            @Option(help: "Only this app id.") var app: String?
            @Option(help: "Output format: table or json.") var format: CredentialActions.Format = .table
            @OptionGroup var source: SourceOptions

            func run() async throws {
                let contracts: [ContractInfo]
                switch try source.source() {
                case .store(let store): contracts = try await store.withStore { try await $0.contracts(app: app) }
                case .collector(let collector):
                    contracts = try await collector.get([ContractInfo].self, "/v1/contracts", query: ["app": app])
                }
                print(ContractsRenderer.render(contracts, as: format), terminator: "")
            }
        }

        /// `decodewatch contracts remove NAME --app A`.
        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove every version of an app's contract.")
            @Argument(help: "The contract's name, as `decodewatch contracts list` shows it.") var name: String
            @Option(help: "The app id.") var app: String
            @OptionGroup var store: StoreOptions
            @OptionGroup var databaseOnly: DatabaseOnlyOptions

            func run() async throws {
                let removed = try await store.withStore { try await $0.removeContracts(app: app, name: name) }
                guard removed > 0 else {
                    throw StoreError(
                        .notFound,
                        "\(app) has no contract named '\(name)'; list them with "
                            + "`decodewatch contracts list --app \(app)`."
                    )
                }
                print("Removed '\(name)' of \(app) (\(Plural.count(removed, "version"))).")
            }
        }
    }
}
