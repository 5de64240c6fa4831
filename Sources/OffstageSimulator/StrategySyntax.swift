public import OffstageCore

extension SchedulingStrategy {
    /// What `init(text:)` accepts, for error messages.
    public static let hint = "judgement, literal, \"fixed 15m\" or \"oracle 1m\""

    /// Reads a strategy as scenarios write it: `judgement`, `literal`, `fixed DURATION`, `oracle [DURATION]`
    /// (the oracle's lead, default one minute). Nil for anything else.
    public init?(text: String) {
        let words = text.split(separator: " ").map(String.init)
        switch (words.first, words.count) {
        case ("judgement", 1): self = .judgement
        case ("literal", 1): self = .literal
        case ("fixed", 2):
            guard let period = Quantities.seconds(words[1]), period > 0 else { return nil }
            self = .fixedPeriod(seconds: period)
        case ("oracle", 1): self = .oracle(lead: 60)
        case ("oracle", 2):
            guard let lead = Quantities.seconds(words[1]) else { return nil }
            self = .oracle(lead: lead)
        default: return nil
        }
    }
}
