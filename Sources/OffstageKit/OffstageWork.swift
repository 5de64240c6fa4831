/// Work an app's code did, as the code describes it: CPU and GPU time and network bytes over an interval.
/// Not an Apple API: on iOS the system measures this itself. In the simulator, where app code only pretends to
/// work, it is how the work reaches the energy ledger; a host that measures real processes ignores it.
public struct OffstageWork: Hashable, Sendable {
    /// CPU time, in seconds of one core.
    public var cpuSeconds: Double
    /// GPU time, in seconds.
    public var gpuSeconds: Double
    /// Network bytes sent and received (on whatever network the device is on).
    public var bytes: Int
    /// The seconds the work was spread over, ending now.
    public var seconds: Double

    public init(cpuSeconds: Double = 0, gpuSeconds: Double = 0, bytes: Int = 0, over seconds: Double = 0) {
        self.cpuSeconds = max(0, cpuSeconds)
        self.gpuSeconds = max(0, gpuSeconds)
        self.bytes = max(0, bytes)
        self.seconds = max(0, seconds)
    }

    /// Tells the system that the calling app just did this work ("this download used 2 MB and 3 CPU-seconds").
    public static func report(cpuSeconds: Double = 0, gpuSeconds: Double = 0, bytes: Int = 0, over seconds: Double = 0)
    {
        AppRuntime.current.link.reportWork(
            OffstageWork(cpuSeconds: cpuSeconds, gpuSeconds: gpuSeconds, bytes: bytes, over: seconds))
    }
}
