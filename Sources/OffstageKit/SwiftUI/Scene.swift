/// SwiftUI's `App`: the app's structure as scenes. Offstage has no interface: it runs an `App`'s background
/// surface (its delegate adaptor, its scene phase and its background tasks) in the simulator and under the daemon.
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
    init()
}

extension App {
    /// `@main struct MyApp: App`: runs the app under the daemon, as `UIApplicationMain` does for a delegate.
    public static func main() {
        OffstageApplication.main(makeDelegate: { SwiftUIAppHost<Self>() })
    }
}

/// SwiftUI's `Scene`: a part of the app's structure; primitive scenes (`WindowGroup`, modifiers) have no body.
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
}

extension Never: Scene {
    public typealias Body = Never
    public var body: Never { fatalError("a primitive scene has no body") }
}

/// A scene Offstage knows itself: it hands what it holds to the host instead of having a body.
@MainActor
protocol PrimitiveScene: Scene {
    func visit(_ visitor: SceneVisitor)
}

extension PrimitiveScene {
    public var body: Never { fatalError("a primitive scene has no body") }
}

/// Walks an app's scenes, collecting their background tasks and scene-phase observers in a fixed order.
@MainActor
final class SceneVisitor {
    var backgroundTasks: [BackgroundTaskHandler] = []
    var phaseObservers: [(ScenePhase) -> Void] = []

    func visit(_ scene: some Scene) {
        if let primitive = scene as? any PrimitiveScene {
            primitive.visit(self)
        } else {
            visit(scene.body)
        }
    }
}

/// SwiftUI's `@SceneBuilder`: lists scenes.
@MainActor @resultBuilder
public enum SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: Scene>(_ content: repeat each Content) -> TupleScene<
        repeat each Content
    > {
        TupleScene(repeat each content)
    }
}

/// Several scenes listed together.
public struct TupleScene<each Content: Scene>: PrimitiveScene {
    let content: (repeat each Content)
    init(_ content: repeat each Content) { self.content = (repeat each content) }

    func visit(_ visitor: SceneVisitor) {
        for scene in repeat each content { visitor.visit(scene) }
    }
}

/// SwiftUI's `WindowGroup`: the app's windows. Its views are made (their bodies are not run: no interface).
public struct WindowGroup<Content: View>: PrimitiveScene {
    let content: Content

    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public init(_ title: String, @ViewBuilder content: () -> Content) { self.content = content() }

    func visit(_ visitor: SceneVisitor) {}
}

/// SwiftUI's `View`, reduced to what a `WindowGroup` holds: apps' views compile; Offstage never draws them.
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {}

/// SwiftUI's `@ViewBuilder`.
@MainActor @resultBuilder
public enum ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<repeat each Content>
    {
        TupleView(repeat each content)
    }
}

/// Views listed together.
public struct TupleView<each Content: View>: View {
    let content: (repeat each Content)
    init(_ content: repeat each Content) { self.content = (repeat each content) }
    public var body: Never { fatalError("a primitive view has no body") }
}

public struct EmptyView: View {
    public init() {}
    public var body: Never { fatalError("a primitive view has no body") }
}

public struct Text: View {
    public let content: String
    public init(_ content: String) { self.content = content }
    public var body: Never { fatalError("a primitive view has no body") }
}
