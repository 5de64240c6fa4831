/// The system's running energy account: the ledger, how far in time it has been integrated, and the cellular
/// radio's tail still to charge. `BackgroundSystem` keeps one and brings it up to date at every entry point.
struct EnergyMeter: Sendable {
    /// The cellular radio lingering in its high-power state after the last byte, and whose byte it was.
    struct RadioTail: Sendable {
        var consumer: EnergyConsumer
        /// Whether the app that sent the last byte was in the background then.
        var background: Bool
        /// When the radio drops back to idle.
        var until: Instant
    }

    var ledger = EnergyLedger()
    /// Energy is charged up to this instant.
    var integratedUntil: Instant = .zero
    var radioTail: RadioTail?
}
