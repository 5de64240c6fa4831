import UIKit

/// Stands in for the app's `AppCoordinator`, which builds its screens: the trial has no UI to start, only the
/// call the app delegate makes.
final class AppCoordinator {
    /// The window the coordinator would fill.
    let window: UIWindow

    /// Keeps the window, as the app's coordinator does.
    init(window: UIWindow) { self.window = window }

    /// Would show the first screen; there is nothing to draw in a trial.
    func start() {}
}
