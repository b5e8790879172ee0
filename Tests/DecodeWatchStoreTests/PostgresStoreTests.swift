import DecodeWatchStore
import DecodeWatchStorePostgres
import Foundation
import InMemoryLogging
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

/// What only the PostgreSQL backend has: its URL, its migrations, its pool's lifecycle and its errors.
@Suite("PostgreSQL backend")
struct PostgresStoreTests {
    @Test("a URL gives host, port, user, percent-decoded password, database and sslmode")
    func parsesURLs() throws {
        let configuration = try PostgresStoreConfiguration(
            url: "postgresql://dw:p%40ss%3Aw0rd@db.internal:6432/decode%20watch?sslmode=require&schema=dw")
        #expect(configuration.host == "db.internal")
        #expect(configuration.port == 6432)
        #expect(configuration.username == "dw")
        #expect(configuration.password == "p@ss:w0rd")
        #expect(configuration.database == "decode watch")
        #expect(configuration.tlsMode == .require)
        #expect(configuration.schema == "dw")
        #expect(configuration.redactedURL == "postgres://dw@db.internal:6432/decode%20watch?sslmode=require&schema=dw")
        #expect(configuration.poolSize == PostgresStoreConfiguration.defaultPoolSize)
        let minimal = try PostgresStoreConfiguration(url: "postgres://dw@[::1]")
        #expect(minimal.host == "::1" && minimal.port == 5432 && minimal.database == nil && minimal.tlsMode == .prefer)
        let verified = try PostgresStoreConfiguration(url: "postgres://dw@db/x?sslmode=verify-full&sslrootcert=/ca.pem")
        #expect(verified.tlsMode == .verifyFull && verified.rootCertificatePath == "/ca.pem")
    }

    @Test(
        "a URL that cannot be used is refused with a sentence naming the problem",
        arguments: [
            ("mysql://dw@db/x", "postgres://user:password@host"),
            ("postgres://db/x", "names no user"),
            ("postgres://dw@/x", "names no host"),
            ("postgres://dw@db/x?sslmode=allow", "sslmode 'allow'"),
            ("postgres://dw@db/x?password=secret", "unknown parameter 'password'"),
            ("postgres://dw@db/x?sslrootcert=/ca.pem", "needs sslmode=verify-full"),
        ])
    func refusesURLs(url: String, problem: String) {
        let error = #expect(throws: PostgresConfigurationError.self) { try PostgresStoreConfiguration(url: url) }
        #expect(error?.message.contains(problem) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("secret") == false)
    }

    @Test("the password never shows in descriptions, mirrors or redacted URLs")
    func redactsPasswords() throws {
        let configuration = try PostgresStoreConfiguration(url: "postgres://dw:hunter2@db:5432/x?sslmode=disable")
        #expect(configuration.redactedURL == "postgres://dw@db:5432/x?sslmode=disable")
        for text in [
            "\(configuration)", String(reflecting: configuration),
            String(describing: Mirror(reflecting: configuration).children.map(\.value)),
        ] {
            #expect(!text.contains("hunter2"), "\(text)")
        }
    }

    @Test("replicas starting together on an empty schema migrate it once, under the advisory lock")
    func concurrentMigrations() async throws {
        try await StoreBackend.postgres.withFreshDatabase { fixture in
            // The fixture's store migrated the schema; start over in an empty one.
            try await fixture.database.execute(
                """
                DO $$ DECLARE t record; BEGIN
                    FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() LOOP
                        EXECUTE 'DROP TABLE ' || quote_ident(t.tablename) || ' CASCADE';
                    END LOOP;
                END $$
                """)
            var replicas: [any CollectorStore] = []
            for _ in 0..<4 { replicas.append(try await fixture.reopen().store) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for replica in replicas { group.addTask { try await replica.checkReadiness() } }
                try await group.waitForAll()
            }
            try await fixture.database.execute(
                """
                DO $$ BEGIN
                    IF (SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_migrations) <> '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24' THEN
                        RAISE EXCEPTION 'unexpected migrations';
                    END IF;
                END $$
                """)
            #expect(try await fixture.send() == .stored)
        }
    }

    @Test("graceful shutdown of the service group closes the pool; later use is unavailable, not a hang")
    func gracefulShutdown() async throws {
        var configuration = try FreshDatabase.postgresConfiguration()
        configuration.poolSize = 2
        let store = PostgresReportStore(configuration: configuration)
        try await testGracefulShutdown { trigger in
            let group = ServiceGroup(
                configuration: .init(services: [store], logger: Logger(label: "decodewatch.tests")))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                try await store.checkReadiness()
                trigger.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
        let error = await #expect(throws: StoreError.self) { try await store.checkReadiness() }
        #expect(error?.code == .unavailable)
    }

    @Test("a refused login is unavailable, and neither the error nor the log shows the password")
    func refusedLogin() async throws {
        var configuration = try FreshDatabase.postgresConfiguration()
        configuration.password = "not-the-password-\(UUID().uuidString)"
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "decodewatch.tests") { _ in handler }
        logger.logLevel = .trace
        let store = PostgresReportStore(configuration: configuration, logger: logger)
        let run = Task { try await store.run() }
        defer { run.cancel() }
        let error = await #expect(throws: StoreError.self) { try await store.checkReadiness() }
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains(configuration.redactedURL) == true, "\(error?.message ?? "")")
        let logged = handler.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        for text in [error?.message ?? "", logged] {
            #expect(!text.contains(configuration.password!), "\(text)")
        }
    }
}
