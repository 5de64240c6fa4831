import Foundation

/// A task executor that runs its jobs one at a time on a thread of its own, for a test whose async work must not
/// wait behind the whole suite: the cooperative pool has a thread per core (2 here), held by the suite's
/// synchronous tests, and every job a test enqueues there waits behind those already queued.
final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    /// The jobs waiting, and whether the thread should end once they are done; guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var finishing = false
    private let condition = NSCondition()

    /// Starts the thread, named `name` (as `top` and `gdb` show it).
    init(name: String) {
        let thread = Thread { [self] in serve() }
        thread.name = name
        thread.start()
    }

    /// Queues `job` for the thread.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Lets the thread end once the jobs queued so far have run; call when no more work will come.
    func finish() {
        condition.withLock {
            finishing = true
            condition.signal()
        }
    }

    /// Runs jobs in the order they came until `finish()` and an empty queue.
    private func serve() {
        while let job = next() { job.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    /// The next job, waiting for one; nil once finishing with none left.
    private func next() -> UnownedJob? {
        condition.withLock {
            while jobs.isEmpty && !finishing { condition.wait() }
            return jobs.isEmpty ? nil : jobs.removeFirst()
        }
    }
}
