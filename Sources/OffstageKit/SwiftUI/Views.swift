/// SwiftUI's `VStack`: views listed vertically (never drawn here).
public struct VStack<Content: View>: View {
    let content: Content
    public init(alignment: HorizontalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        self.content = content()
    }
    public var body: Never { fatalError("a primitive view has no body") }
}

/// SwiftUI's `HStack`: views listed horizontally (never drawn here).
public struct HStack<Content: View>: View {
    let content: Content
    public init(alignment: VerticalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        self.content = content()
    }
    public var body: Never { fatalError("a primitive view has no body") }
}

/// SwiftUI's `HorizontalAlignment`.
public enum HorizontalAlignment: Sendable { case leading, center, trailing }
/// SwiftUI's `VerticalAlignment`.
public enum VerticalAlignment: Sendable { case top, center, bottom }

/// SwiftUI's `Button`: its action runs only if code calls it (no one taps here).
public struct Button<Label: View>: View {
    let action: () -> Void
    let label: Label
    public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
    }
    public var body: Never { fatalError("a primitive view has no body") }
}

extension Button where Label == Text {
    public init(_ title: String, action: @escaping () -> Void) { self.init(action: action) { Text(title) } }
}

/// A view with a modifier applied: the modifier has no effect (nothing is drawn or shown).
public struct ModifiedView<Content: View>: View {
    let content: Content
    public var body: Never { fatalError("a primitive view has no body") }
}

extension View {
    /// `.onAppear`: never called (no view appears here).
    public func onAppear(perform action: (() -> Void)? = nil) -> ModifiedView<Self> { ModifiedView(content: self) }

    /// `.task`: never started (no view appears here).
    public func task(_ action: @escaping @Sendable () async -> Void) -> ModifiedView<Self> {
        ModifiedView(content: self)
    }

    /// `.padding()`: no effect.
    public func padding(_ length: Double? = nil) -> ModifiedView<Self> { ModifiedView(content: self) }

    /// `.environmentObject(_:)`: no effect (views are never drawn, so none reads it).
    public func environmentObject<Object: AnyObject>(_ object: Object) -> ModifiedView<Self> {
        ModifiedView(content: self)
    }
}
