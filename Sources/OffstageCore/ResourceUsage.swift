/// What an app's process used over a stretch of time, as its host measured it: CPU, GPU and network.
/// The energy ledger prices it and the resource limits watch it; the simulator reports modelled work.
public struct ResourceUsage: Hashable, Sendable, Codable {
    /// CPU time, in seconds of one core.
    public var cpuSeconds: Double
    /// GPU time, in seconds.
    public var gpuSeconds: Double
    /// Bytes sent and received over Wi-Fi.
    public var wifiBytes: Int
    /// Bytes sent and received over cellular.
    public var cellularBytes: Int
    /// The wall-clock seconds the usage was spread over (the measuring interval, ending at the event).
    public var interval: Double

    public init(
        cpuSeconds: Double = 0, gpuSeconds: Double = 0, wifiBytes: Int = 0, cellularBytes: Int = 0, interval: Double = 0
    ) {
        self.cpuSeconds = cpuSeconds
        self.gpuSeconds = gpuSeconds
        self.wifiBytes = wifiBytes
        self.cellularBytes = cellularBytes
        self.interval = interval
    }

    /// Usage an app reported with one byte count: the bytes went over `network`, the one the device is on
    /// now (with none, nothing was sent). The simulator and the daemon both take app reports this way.
    public init(cpuSeconds: Double, gpuSeconds: Double, bytes: Int, on network: NetworkKind, interval: Double) {
        self.init(
            cpuSeconds: cpuSeconds, gpuSeconds: gpuSeconds, wifiBytes: network == .wifi ? bytes : 0,
            cellularBytes: network == .cellular ? bytes : 0, interval: interval)
    }

    /// The usage of two intervals together.
    public static func + (a: ResourceUsage, b: ResourceUsage) -> ResourceUsage {
        ResourceUsage(
            cpuSeconds: a.cpuSeconds + b.cpuSeconds, gpuSeconds: a.gpuSeconds + b.gpuSeconds,
            wifiBytes: saturatingSum(a.wifiBytes, b.wifiBytes),
            cellularBytes: saturatingSum(a.cellularBytes, b.cellularBytes),
            interval: a.interval + b.interval)
    }
}

/// `a + b`, or `Int.max` (`Int.min`) where the sum would overflow: byte counts are summed over an app's life
/// from numbers apps report, and no count an app chose may trap.
func saturatingSum(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b > 0 ? .max : .min) : sum
}
