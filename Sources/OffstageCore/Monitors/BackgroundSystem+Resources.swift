/// Resource reports from hosts: what each app's process used, kept per app for the energy ledger,
/// the budgets and the resource limits, which each read the report here.
extension BackgroundSystem {
    /// Takes a host's report that `id` used `usage` in the interval ending now.
    mutating func noteResourceUsage(_ id: BundleID, _ usage: ResourceUsage) {
        guard apps.contains(id) else {
            return record(nil, .log, reason: "resource usage for \(id), not installed: ignored")
        }
        apps[id].resources.noteUsage(usage)
        if let exceeded = monitors.noteCPUReport(
            usage, at: apps.position(of: id), watches: cpuMonitorWatches(id), now: now, policy: policy)
        {
            killForCPU(id, exceeded)
        }
        chargeEnergy(of: usage, to: id)
    }

    /// Answers the app's reports of the work its code does (`beginWork`/`end`): the CPU monitor's busy units.
    mutating func answerWorkReport(_ call: AppCall, from id: BundleID) -> AppCallResult {
        switch call {
        case .workBegan(let number, let cpuSeconds, let seconds):
            monitors.noteWorkBegan(
                number, cpuSeconds: cpuSeconds, seconds: seconds, at: apps.position(of: id), now: now)
        case .workEnded(let number):
            monitors.noteWorkEnded(number, at: apps.position(of: id))
        default: preconditionFailure("not a work report: \(call)")
        }
        return .ok
    }

    /// The app's process ended: the work it reported ends with it.
    mutating func forgetReportedWork(of id: BundleID) { monitors.forgetCPUWork(at: apps.position(of: id)) }

    /// Everything the app has been reported to use since it was installed.
    public func totalUsage(of app: BundleID) -> ResourceUsage { apps.lookUp(app)?.totalUsage ?? ResourceUsage() }
}
