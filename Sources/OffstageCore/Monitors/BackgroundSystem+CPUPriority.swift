/// Foreground first (SPEC §5): background work gets a lower CPU priority while any app is on screen, and a
/// continued-processing task is boosted while its own app is on screen. Hosts get `.setCPUPriority` on change.
///
/// The rule, for every app whose process may use the CPU (not suspended, not terminated):
/// - the app on screen is `foreground`, or `boosted` while it runs a continued-processing task;
/// - any other app is `background` while an app is on screen, and `normal` while none is (home screen, locked).
/// Suspended and terminated apps use no CPU: they are forgotten, and get a priority again when they run.
extension BackgroundSystem {
    /// The CPU priority last sent for the app; nil while it is suspended or not running.
    public func cpuPriority(of app: BundleID) -> CPUPriority? {
        apps.contains(app) ? monitors.cpuPriority(at: apps.position(of: app)) : nil
    }

    /// The priority the rule gives the app now; nil when it uses no CPU.
    func currentCPUPriority(of id: BundleID) -> CPUPriority? {
        let state = apps[id].state
        guard state.hasProcess, state != .suspended else { return nil }
        if id == foregroundApp {
            return apps[id].running.contains { $0.request.kind == .continuedProcessing } ? .boosted : .foreground
        }
        return foregroundApp == nil ? .normal : .background
    }

    /// Sends `.setCPUPriority` for each of `apps` whose priority changed since it was last sent (a change
    /// of the app on screen reviews every app).
    mutating func updateCPUPriorities(_ ids: AppSet) {
        for position in ids {
            let id = apps.id(at: position)
            if let changed = monitors.updateCPUPriority(at: position, to: currentCPUPriority(of: id)) {
                emit(.setCPUPriority(id, changed))
            }
        }
    }
}
