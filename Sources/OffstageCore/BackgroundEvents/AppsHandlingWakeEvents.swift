/// The apps handling a push or a fetch, for which the device stays awake (§5 coalescing): kept so that asking
/// whether one keeps the device awake reads these apps only. An app may stay in it until its next settle.
struct AppsHandlingWakeEvents: Sendable {
    private var positions = AppSet()

    /// Notes that the app at `position` (`AppTable.position(of:)`) began handling a push or a fetch.
    mutating func insert(_ position: Int) { positions.insert(position) }

    /// Notes that the app at `position` handles no push or fetch any more.
    mutating func remove(_ position: Int) { positions.remove(position) }

    /// Whether one of these apps still handles a push or fetch, so the device is awake anyway.
    func keepDeviceAwake(_ apps: AppTable) -> Bool {
        positions.contains { apps[apps.id(at: $0)].isHandlingWakeEvent }
    }
}
