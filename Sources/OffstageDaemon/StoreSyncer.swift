import Foundation
import Glibc
import Synchronization

/// Makes the store's write-ahead log durable on a thread of its own (group commit): the loop commits a turn's
/// writes, asks for a sync of that turn's generation and serves the next turn while the disk works.
///
/// The answers held for a generation are sent once a sync that began after its commit has ended: the thread takes
/// the latest generation asked for when it starts an `fsync`, so one `fsync` covers every turn committed meanwhile.
final class StoreSyncer: Sendable {
    /// What the thread reports to the loop: every commit up to `generation` is on disk, or its sync failed.
    enum Report: Sendable {
        case synced(generation: UInt64)
        case failed(generation: UInt64, reason: String)

        /// The generation the report is about, synced or not.
        var generation: UInt64 {
            switch self {
            case .synced(let generation), .failed(let generation, _): generation
            }
        }
    }

    /// The latest generation asked for, whether the thread runs and whether it is to end.
    private struct Requests {
        var generation: UInt64 = 0
        var running = false
        var stopping = false
    }

    private let walPath: String
    private let report: @Sendable (Report) -> Void
    private let requests = Mutex(Requests())
    /// Signalled once per request (and by `stop`); the thread skips a wake-up that asks for nothing new.
    private let wake = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    /// A syncer of the log at `walPath`; `report` is called on its thread after each sync (the daemon posts it to
    /// its loop).
    init(walPath: String, report: @escaping @Sendable (Report) -> Void) {
        self.walPath = walPath
        self.report = report
    }

    /// Starts the thread (when the loop starts: a daemon that fails to start leaves none behind).
    func start() {
        requests.withLock { $0.running = true }
        Thread.detachNewThread { [self] in serve() }
    }

    /// Asks for every commit up to `generation` to be made durable (called by the loop after the commit).
    func request(_ generation: UInt64) {
        requests.withLock { $0.generation = max($0.generation, generation) }
        wake.signal()
    }

    /// Ends the thread once the sync under way (if any) and those asked for have been done, and waits for it.
    func stop() {
        guard
            requests.withLock({
                $0.stopping = true
                return $0.running
            })
        else { return }
        wake.signal()
        ended.wait()
    }

    /// The thread: waits for a request, syncs the log once for every generation asked for so far, reports.
    private func serve() {
        // Started from the loop, the thread would carry its name (`offstage-loop`), which tests and `top` go by.
        _ = setThreadName(pthread_self(), "offstage-sync")
        var file: Int32 = -1
        var synced: UInt64 = 0
        while true {
            wake.wait()
            let (target, stopping) = requests.withLock { ($0.generation, $0.stopping) }
            if target > synced {
                do {
                    try Store.syncLog(walPath, file: &file)
                    report(.synced(generation: target))
                } catch { report(.failed(generation: target, reason: error.description)) }
                synced = target
            }
            if stopping { break }
        }
        if file >= 0 { close(file) }
        ended.signal()
    }
}
