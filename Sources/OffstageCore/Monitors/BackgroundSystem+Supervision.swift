/// The system's watch over running work, the last pass of `settle()`: the continued-processing monitor,
/// the resource limits and the CPU priorities, which all judge the state the other passes left.
extension BackgroundSystem {
    /// Runs the monitors over the reviewed `apps`. When the memory limit ends a process, the ending marks the
    /// app for review, so `settle` reviews and supervises again (a queued continued-processing task may
    /// start in its place); priorities follow the final state.
    mutating func superviseRunningWork(_ apps: AppSet) {
        watchContinuedTasks()
        resetIdleCPUWindows(apps)
        enforceBackgroundMemoryLimit(apps)
        updateCPUPriorities(apps)
    }
}
