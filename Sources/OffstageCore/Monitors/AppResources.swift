/// What the host reported an app's processes use: the memory footprint of its process now, and everything it used
/// since installation. The monitors read it (the background memory limit, jetsam's order, the data budget's
/// measure); only the host's reports and a restart change it.
struct AppResources: Sendable {
    /// The footprint the host last reported, in bytes (the policy's default until it reports one).
    private(set) var memoryFootprint: Int
    /// Everything the host reported the app's processes used, since installation. Outlives processes.
    private(set) var totalUsage = ResourceUsage()

    init(memoryFootprint: Int) { self.memoryFootprint = memoryFootprint }

    /// The host reported the process's footprint, in bytes (a negative report counts as none).
    mutating func noteFootprint(_ bytes: Int) { memoryFootprint = max(0, bytes) }

    /// The host reported what the app's processes used since its last report.
    mutating func noteUsage(_ usage: ResourceUsage) { totalUsage = totalUsage + usage }

    /// Takes back what the app used before a restart.
    mutating func restore(totalUsage: ResourceUsage) { self.totalUsage = totalUsage }
}
