/// A value for some of the installed apps, kept at each app's installation position (`AppTable.position(of:)`):
/// a lookup is an index, not a hash of the bundle identifier (the monitors read theirs at every review).
struct AppSlots<Value: Sendable>: Sendable {
    private var values: [Value?] = []

    /// The value of the app at `position`; nil when it has none. Setting nil forgets it.
    subscript(position: Int) -> Value? {
        get { position < values.count ? values[position] : nil }
        set {
            guard newValue != nil || position < values.count else { return }
            makeRoom(for: position)
            values[position] = newValue
        }
    }

    /// The value of the app at `position`, made with `initial` when it has none, changed where it lies.
    subscript(position: Int, default initial: @autoclosure () -> Value) -> Value {
        get { self[position] ?? initial() }
        _modify {
            makeRoom(for: position)
            if values[position] == nil { values[position] = initial() }
            yield &values[position]!
        }
    }

    /// Grows the storage so that `position` has a place.
    private mutating func makeRoom(for position: Int) {
        if position >= values.count { values += repeatElement(nil, count: position + 1 - values.count) }
    }
}
