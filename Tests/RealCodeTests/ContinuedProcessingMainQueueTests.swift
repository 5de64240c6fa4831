import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// iOS 26 continued processing registered `using: .main`, its handler entering the main actor with
/// `MainActor.assumeIsolated` and its steps awaited in a main-actor `Task`.
nonisolated final class ExportApp: UIApplicationDelegate, OffstageUserActions, @unchecked Sendable {
    static let export = "com.example.export.render"
    let steps: Int
    let sightings: Sightings

    init(steps: Int, sightings: Sightings) {
        self.steps = steps
        self.sightings = sightings
    }

    func performUserAction(_ action: String) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.export, using: .main) { task in
            MainActor.assumeIsolated { self.export(task as! BGContinuedProcessingTask) }
        }
        let request = BGContinuedProcessingTaskRequest(identifier: Self.export, title: "Export", subtitle: "Starting")
        request.strategy = .fail
        do { try BGTaskScheduler.shared.submit(request) } catch { sightings.note("submit failed: \(error)") }
    }

    @MainActor func export(_ task: BGContinuedProcessingTask) {
        task.progress.totalUnitCount = Int64(steps)
        let work = Task { @MainActor in
            do {
                for _ in 0..<steps {
                    try await Task.sleep(for: .seconds(3))
                    task.progress.completedUnitCount += 1
                }
            } catch {}
            let done = task.progress.completedUnitCount == task.progress.totalUnitCount
            sightings.note("stopped after \(task.progress.completedUnitCount) steps")
            task.setTaskCompleted(success: done)
        }
        task.expirationHandler = {
            MainActor.assumeIsolated { self.sightings.note("expired on the main actor") }
            work.cancel()
        }
    }
}

@Suite struct ContinuedProcessingMainQueueTests {
    let app = "com.example.export"

    func scenario(steps: Int, expireAt: Double?, sightings: Sightings) -> RealCodeRun {
        var timeline = [
            at(1, .open(BundleID(app))), TimelineEntry(at: 10, action: .tap(BundleID(app), action: "export")),
            at(20, .home),
        ]
        if let expireAt {
            timeline.append(at(expireAt, .simulateExpiration(BundleID(app), identifier: ExportApp.export)))
        }
        return RealCodeRun(
            apps: [
                (
                    manifest(app, identifiers: ["com.example.export.*"]),
                    { @Sendable in ExportApp(steps: steps, sightings: sightings) }
                )
            ],
            timeline: timeline, duration: 600)
    }

    @Test func continuedProcessingOnTheMainQueueRunsToCompletion() throws {
        let sightings = Sightings()
        let records = try scenario(steps: 20, expireAt: nil, sightings: sightings).run()
        #expect(records.of(.started, app, task: ExportApp.export).map(\.at.seconds) == [10])
        #expect(records.of(.completed, app, task: ExportApp.export).map(\.at.seconds) == [70])
        #expect(records.of(.completed, app, task: ExportApp.export).first?.succeeded == true)
        #expect(sightings.lines == ["stopped after 20 steps"])
    }

    @Test func continuedProcessingOnTheMainQueueStopsWhenExpired() throws {
        let sightings = Sightings()
        let records = try scenario(steps: 20, expireAt: 41, sightings: sightings).run()
        #expect(records.of(.expired, app, task: ExportApp.export).map(\.at.seconds) == [41])
        // The step under way when the task expired ends its sleep early (cancelled) and the loop stops.
        #expect(records.of(.completed, app, task: ExportApp.export).map(\.at.seconds) == [41])
        #expect(sightings.lines == ["expired on the main actor", "stopped after 10 steps"])
    }

    @Test func continuedProcessingOnTheMainQueueGivesTheSameRecordsInTwentyRuns() throws {
        let texts = try scenario(steps: 20, expireAt: 41, sightings: Sightings()).texts(runs: 20)
        #expect(Set(texts).count == 1)
    }
}
