// The WWDC25 samples 14:00 "Continued processing task registration" and 15:47 "Continued processing
// task submission", with Apple's real signatures; only the import differs from iOS.
import OffstageKit

func handleDialogConfirmation() {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.colorfeed.wwdc25.userTask", using: nil) { task in
        let task = task as! BGContinuedProcessingTask

        var shouldContinue = true
        task.expirationHandler = {
            shouldContinue = false
        }

        task.progress.totalUnitCount = 100
        task.progress.completedUnitCount = 0

        while shouldContinue {
            // Do some work
            guard task.progress.completedUnitCount < task.progress.totalUnitCount else { break }
            Feed.exportStep()
            task.progress.completedUnitCount += 1
        }

        task.setTaskCompleted(success: true)
    }
}

func submitContinuedProcessingTaskRequest() {
    let request = BGContinuedProcessingTaskRequest(
        identifier: "com.colorfeed.wwdc25.userTask",
        title: "A succinct title",
        subtitle: "A useful and informative subtitle"
    )

    request.strategy = .fail

    try? BGTaskScheduler.shared.submit(request)
}
