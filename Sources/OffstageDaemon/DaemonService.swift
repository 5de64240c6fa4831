import Foundation
public import Logging
public import ServiceLifecycle
import UnixSignals

/// `offstage daemon` as a swift-service-lifecycle `Service`: the loop runs on its own thread;
/// graceful shutdown (SIGTERM, SIGINT) stops it, which ends the apps and closes the store.
public struct DaemonService: Service {
    let configuration: DaemonConfiguration
    let logger: Logger

    public init(configuration: DaemonConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    public func run() async throws {
        let daemon = try Daemon(configuration: configuration, logger: logger)
        await withGracefulShutdownHandler {
            await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                let thread = Thread {
                    daemon.run()
                    finished.resume()
                }
                thread.name = "offstage-daemon"
                thread.start()
            }
        } onGracefulShutdown: {
            daemon.requestShutdown()
        }
    }

    /// Runs the daemon until SIGTERM or SIGINT.
    public static func runUntilSignalled(configuration: DaemonConfiguration, logger: Logger) async throws {
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: DaemonService(configuration: configuration, logger: logger))],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
