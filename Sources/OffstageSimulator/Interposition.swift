import OffstageAppExecution

/// One symbol the interposition (`OffstageAppExecution`) needs, as this process resolved it at load: the
/// simulator refuses to run Swift app code when one is missing, rather than let its work escape virtual time.
public struct InterposedSymbol: Hashable, Sendable {
    /// The symbol's name (`dispatch_async`, `clock_gettime`, `_dispatch_source_type_timer`…).
    public let name: String
    /// What virtual time loses without it.
    public let loses: String
    /// Whether its real definition (libdispatch's, libc's, CoreFoundation's) was found.
    public let found: Bool
    /// Whether calls from the process reach the interposition's definition; nil for a symbol it only uses.
    public let interposed: Bool?

    /// Describes a symbol as resolved; `interposed` is nil for a symbol the interposition only uses.
    public init(name: String, loses: String, found: Bool, interposed: Bool?) {
        self.name = name
        self.loses = loses
        self.found = found
        self.interposed = interposed
    }

    /// What is wrong with the symbol, naming it and what virtual time loses; nil when it is as needed.
    public var problem: String? {
        if !found { return "\(name) was not found (\(loses))" }
        if interposed == false { return "\(name) is not interposed: calls reach the real one (\(loses))" }
        return nil
    }
}

/// The interposition's symbols in this process, checked once at load.
public enum Interposition {
    /// Every symbol the interposition needs, in its own order.
    public static let symbols: [InterposedSymbol] = (0..<offstage_interposition_symbol_count()).map { index in
        let status = offstage_interposition_symbol(index)
        return InterposedSymbol(
            name: String(cString: status.name), loses: String(cString: status.loses), found: status.found != 0,
            interposed: status.interposed < 0 ? nil : status.interposed != 0)
    }

    /// Why this process cannot run app code in virtual time (one problem per symbol); empty when it can.
    public static let problems: [String] = symbols.compactMap(\.problem)
}
