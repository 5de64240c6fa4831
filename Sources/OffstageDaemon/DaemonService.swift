import Foundation
import Glibc
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
                    Self.becomeLoopThread()
                    daemon.run()
                    finished.resume()
                }
                thread.start()
            }
        } onGracefulShutdown: {
            daemon.requestShutdown()
        }
    }

    /// Names the loop's thread and gives it the normal priority. It is started from a Swift-concurrency worker,
    /// whose name (`…user-initiated-qos`) and nice value (-2, libdispatch's stand-in for its QoS on Linux) it
    /// would otherwise keep, and pass on to every app it spawns: apps must start at the normal priority.
    static func becomeLoopThread() {
        Thread.current.name = "offstage-loop"  // Set from the thread itself: Foundation names only the current thread.
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 0)  // On Linux: this thread alone.
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
