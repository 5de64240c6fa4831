import OffstageCore

/// The report's colours, in one place so the plots and their legends agree.
enum Palette {
    static func color(_ state: LaneState) -> String {
        switch state {
        case .foreground: "#2e7d32"
        case .background: "#f9a825"
        case .suspended: "#90caf9"
        case .notRunning: "#eceff1"
        }
    }

    static func color(_ kind: TaskKind?) -> String {
        switch kind {
        case .appRefresh: "#1565c0"
        case .processing: "#6a1b9a"
        case .continuedProcessing: "#00838f"
        case nil: "#607d8b"
        }
    }

    /// The name of a task kind in legends ("app refresh"; "task" when unknown).
    static func name(_ kind: TaskKind?) -> String { kind?.rawValue ?? "task" }

    static let expired = "#d32f2f"
    static let killed = "#4a0000"
    static let wake = "#5d4037"
    static let pushArrived = "#757575"
    static let pushDelivered = "#2e7d32"
    static let pushDropped = "#d32f2f"
    static let pushHeld = "#ffcc80"
    static let battery = "#1b5e20"
    static let charging = "#c8e6c9"
    static let critical = "#d32f2f"
    static let scenarioBattery = "#6d4c41"
    static let foregroundEnergy = "#3949ab"
    static let backgroundEnergy = "#fb8c00"

    /// The device lanes' colours: a condition that blocks work stands out; the usual one is pale.
    enum Device {
        static let inUse = "#2e7d32"
        static let screenOnLocked = "#a5d6a7"
        static let notYetIdle = "#ce93d8"
        static let idle = "#6a1b9a"
        static let onCharger = "#43a047"
        static let wifi = "#1e88e5"
        static let cellular = "#fb8c00"
        static let noNetwork = "#d32f2f"
        static let lowPowerMode = "#fdd835"
        static let lowDataMode = "#ffb74d"
        static let thermalFair = "#ffe082"
        static let thermalSerious = "#ff8a65"
        static let thermalCritical = "#c62828"
        static let off = "#eceff1"
    }
}

/// A lane's name for the left margin: long bundle identifiers lose their middle, not their ends.
func laneName(_ text: String, limit: Int = 34) -> String {
    guard text.count > limit else { return text }
    let keep = (limit - 1) / 2
    return String(text.prefix(keep)) + "…" + String(text.suffix(limit - 1 - keep))
}
