/// The system's watch over running work, the last pass of `settle()`: the continued-processing monitor,
/// the resource limits and the CPU priorities, which all judge the state the other passes left.
extension BackgroundSystem {
    /// Runs the monitors. When the memory limit ends a process, it settles again so that the other passes
    /// react (a queued continued-processing task may start in its place); priorities follow the final state.
    mutating func superviseRunningWork() {
        watchContinuedTasks()
        resetIdleCPUWindows()
        if enforceBackgroundMemoryLimit() { return settle() }
        updateCPUPriorities()
    }
}
