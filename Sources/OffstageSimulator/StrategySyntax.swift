import OffstageCore

extension SchedulingStrategy {
    /// What `init(text:)` accepts, for error messages.
    public static let hint =
        "judgement, literal, \"fixed 15m\", \"fixed-in-contract 1h\", \"oracle 1m\" or \"oracle-in-contract 1m\""

    /// Reads a strategy as scenarios write it: `judgement`, `literal`, `fixed DURATION`, `fixed-in-contract
    /// DURATION`, `oracle [DURATION]` or `oracle-in-contract [DURATION]` (the oracle's lead, default one minute).
    /// Nil for anything else.
    public init?(text: String) {
        let words = text.split(separator: " ").map(String.init)
        switch (words.first, words.count) {
        case ("judgement", 1): self = .judgement
        case ("literal", 1): self = .literal
        case ("fixed", 2), ("fixed-in-contract", 2):
            guard let period = Quantities.seconds(words[1]), period > 0 else { return nil }
            self = words[0] == "fixed" ? .fixedPeriod(seconds: period) : .fixedPeriodWithinContract(seconds: period)
        case ("oracle", 1...2), ("oracle-in-contract", 1...2):
            guard let lead = words.count == 1 ? 60 : Quantities.seconds(words[1]) else { return nil }
            self = words[0] == "oracle" ? .oracle(lead: lead) : .oracleWithinContract(lead: lead)
        default: return nil
        }
    }
}
