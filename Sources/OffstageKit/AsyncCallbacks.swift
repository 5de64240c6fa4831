/// Runs an `async` delegate method for a caller that holds a completion handler: the bridge between UIKit's two
/// forms of one callback, so that an app that implements only the `async` form is called, as on iOS.
/// The method runs on the main actor (UIKit calls delegates there) and its answer goes to the completion handler.
func answerAsynchronously<Answer: Sendable>(
    _ completionHandler: @escaping (Answer) -> Void, with method: @escaping () async -> Answer
) {
    // Delegates are main-queue objects (UIKit's delegate protocols are main-actor); the task stays on it.
    nonisolated(unsafe) let method = method
    nonisolated(unsafe) let completionHandler = completionHandler
    Task { @MainActor in completionHandler(await method()) }
}
