/// SwiftUI's `BackgroundTask`: the kind of background work a scene's `.backgroundTask` modifier answers.
public struct BackgroundTask<Request, Response>: Sendable {
    let identifier: String
    let kind: Kind

    enum Kind: Sendable {
        case appRefresh
        case urlSession
    }
}

extension BackgroundTask where Request == Void, Response == Void {
    /// A `BGAppRefreshTask` with this identifier (in the Info.plist's `BGTaskSchedulerPermittedIdentifiers`).
    public static func appRefresh(_ identifier: String) -> BackgroundTask<Void, Void> {
        BackgroundTask(identifier: identifier, kind: .appRefresh)
    }
}

extension BackgroundTask where Request == String, Response == Void {
    /// Events of the background `URLSession` with this identifier. The simulator has no background sessions
    /// (`URLSessionConfiguration.background` is not in FoundationNetworking): the action is never called.
    public static func urlSession(_ identifier: String) -> BackgroundTask<String, Void> {
        BackgroundTask(identifier: identifier, kind: .urlSession)
    }
}

/// A registered `.backgroundTask` action, as the host runs it.
struct BackgroundTaskHandler {
    var identifier: String
    var kind: BackgroundTask<Void, Void>.Kind
    var action: @Sendable () async -> Void
}

extension Scene {
    /// SwiftUI's `.backgroundTask(_:action:)`: when the system launches the task, the action runs; the task is
    /// complete when it returns. Should the task expire first, the action's Swift task is cancelled.
    public func backgroundTask<Request, Response>(
        _ task: BackgroundTask<Request, Response>, action: @escaping @Sendable (Request) async -> Response
    ) -> some Scene {
        BackgroundTaskScene(content: self, task: task, action: action)
    }

    /// SwiftUI's `.onChange(of:perform:)` for the scene phase (the only value a scene sees change here).
    public func onChange(of phase: ScenePhase, perform action: @escaping (ScenePhase) -> Void) -> some Scene {
        PhaseObserverScene(content: self) { action($0) }
    }

    /// SwiftUI's `.onChange(of:_:)` (iOS 17) for the scene phase: old and new.
    public func onChange(of phase: ScenePhase, _ action: @escaping (ScenePhase, ScenePhase) -> Void) -> some Scene {
        let previous = PreviousPhase(phase)
        return PhaseObserverScene(content: self) { new in
            action(previous.value, new)
            previous.value = new
        }
    }
}

/// The phase an iOS 17 `onChange` last saw.
final class PreviousPhase {
    var value: ScenePhase
    init(_ value: ScenePhase) { self.value = value }
}

struct BackgroundTaskScene<Content: Scene, Request, Response>: PrimitiveScene {
    let content: Content
    let task: BackgroundTask<Request, Response>
    let action: @Sendable (Request) async -> Response

    func visit(_ visitor: SceneVisitor) {
        visitor.visit(content)
        guard task.kind == .appRefresh, let action = action as? @Sendable (()) async -> Void else { return }
        visitor.backgroundTasks.append(
            BackgroundTaskHandler(identifier: task.identifier, kind: .appRefresh, action: { await action(()) }))
    }
}

struct PhaseObserverScene<Content: Scene>: PrimitiveScene {
    let content: Content
    let observer: (ScenePhase) -> Void

    func visit(_ visitor: SceneVisitor) {
        visitor.visit(content)
        visitor.phaseObservers.append(observer)
    }
}
