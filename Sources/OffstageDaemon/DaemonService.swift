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

    /// Makes the daemon on the loop's thread, where it lives (it is not `Sendable`), and serves until a graceful
    /// shutdown, which reaches the loop through its inbox.
    public func run() async throws {
        let inbox = try Inbox()
        let (configuration, logger) = (configuration, logger)
        try await withGracefulShutdownHandler {
            try await withCheckedThrowingContinuation { (finished: CheckedContinuation<Void, any Error>) in
                let thread = Thread {
                    Self.takeNormalPriority()
                    do {
                        let daemon = try Daemon(configuration: configuration, logger: logger, inbox: inbox)
                        // Named once the helper threads `Daemon.init` starts have started: a thread starts with its
                        // creator's name, and only the loop is `offstage-loop`.
                        _ = setThreadName(pthread_self(), "offstage-loop")
                        daemon.run()
                        finished.resume()
                    } catch { finished.resume(throwing: error) }
                }
                thread.start()
            }
        } onGracefulShutdown: {
            inbox.post(.shutdown)
        }
    }

    /// Gives the loop's thread the normal priority. It is started from a Swift-concurrency worker, whose nice value
    /// (-2, libdispatch's stand-in for its QoS on Linux) it would otherwise keep, and pass on to every app it
    /// spawns: apps must start at the normal priority. (Its name is set from the thread itself: Foundation's
    /// `Thread.current.name` did not always reach the kernel.)
    static func takeNormalPriority() {
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

/// `pthread_setname_np`, which Glibc's Swift module does not export (it needs `_GNU_SOURCE`): the loop's and the
/// sync thread's names (a thread starts with its creator's).
typealias SetThreadName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
let setThreadName = unsafeBitCast(dlsym(nil, "pthread_setname_np")!, to: SetThreadName.self)
