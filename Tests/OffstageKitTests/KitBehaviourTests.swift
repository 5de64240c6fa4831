import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// The app-facing API's behaviours that only OffstageKit can show: what app code sees and does.
@Suite struct KitBehaviourTests {
    @Test func eachAppHasItsOwnSharedSchedulerAndApplication() throws {
        let seen = Observations()
        func app(_ name: String) -> TestApp {
            TestApp(launch: { application in
                let registered = BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh.task", using: nil) {
                    _ in
                }
                seen.note(
                    "\(name) registered \(registered) app \(ObjectIdentifier(application) == ObjectIdentifier(UIApplication.shared))"
                )
                seen.note("\(name) scheduler \(ObjectIdentifier(BGTaskScheduler.shared).hashValue)")
            })
        }
        let records = try simulate(
            [
                (manifest("com.a", identifiers: ["refresh.task"]), app("a")),
                (manifest("com.b", identifiers: ["refresh.task"]), app("b")),
            ],
            timeline: [at(1, .open("com.a")), at(2, .open("com.b"))], duration: 10)
        #expect(seen.lines.filter { $0.hasSuffix("registered true app true") }.count == 2)
        let schedulers = Set(seen.lines.filter { $0.contains("scheduler") }.map { $0.split(separator: " ").last! })
        #expect(schedulers.count == 2)
        #expect(records.of(.crashed, "com.a").isEmpty && records.of(.crashed, "com.b").isEmpty)
    }

    @Test func taskWithoutExpirationHandlerIsMarkedCompleteAndUnsuccessful() throws {
        let app = TestApp(
            launch: { _ in
                // The launch handler never completes the task and sets no expiration handler.
                BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.a.refresh", using: nil) { _ in }
            },
            background: { _ in try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.a.refresh"))
            })
        let records = try simulate(
            [(manifest("com.a", identifiers: ["com.a.refresh"]), app)],
            timeline: [at(1, .open("com.a")), at(2, .home)],
            duration: 120)
        let completed = records.of(.completed, "com.a", task: "com.a.refresh")
        #expect(completed.count == 1)
        #expect(completed.first?.detail == .completed(success: false, seconds: 30))
        #expect(completed.first.map { $0.at.seconds } == 32)
        #expect(records.of(.terminated, "com.a").isEmpty)
    }

    @Test func getPendingTaskRequestsReturnsCopies() throws {
        let seen = Observations()
        let app = TestApp(launch: { _ in
            let scheduler = BGTaskScheduler.shared
            scheduler.register(forTaskWithIdentifier: "com.a.clean", using: nil) { _ in }
            let request = BGProcessingTaskRequest(identifier: "com.a.clean")
            request.requiresExternalPower = true
            try? scheduler.submit(request)
            request.requiresExternalPower = false
            scheduler.getPendingTaskRequests { pending in
                (pending.first as? BGProcessingTaskRequest)?.requiresExternalPower = false
            }
            scheduler.getPendingTaskRequests { pending in
                seen.note(
                    "\(pending.count) \((pending.first as? BGProcessingTaskRequest)?.requiresExternalPower == true)")
            }
        })
        _ = try simulate(
            [(manifest("com.a", identifiers: ["com.a.clean"]), app)], timeline: [at(1, .open("com.a"))], duration: 5)
        #expect(seen.lines == ["1 true"])
    }

    @Test func submitThrowsBGTaskSchedulerErrorsWithIOSCodes() throws {
        let seen = Observations()
        let app = TestApp(launch: { _ in
            let scheduler = BGTaskScheduler.shared
            scheduler.register(forTaskWithIdentifier: "com.a.refresh", using: nil) { _ in }
            do {
                try scheduler.submit(BGAppRefreshTaskRequest(identifier: "com.a.refresh"))
            } catch BGTaskScheduler.Error.notPermitted {
                seen.note("notPermitted")
            } catch {
                seen.note("other \(error)")
            }
            do {
                try scheduler.submit(BGAppRefreshTaskRequest(identifier: "com.a.refresh"))
            } catch let error as BGTaskScheduler.Error {
                seen.note("\(BGTaskScheduler.Error.errorDomain) \(error.errorCode)")
            } catch {}
        })
        _ = try simulate(
            [(manifest("com.a", modes: [.processing], identifiers: ["com.a.refresh"]), app)],
            timeline: [at(1, .open("com.a"))],
            duration: 5)
        #expect(seen.lines == ["notPermitted", "BGTaskSchedulerErrorDomain 3"])
    }

    @Test func continuedProcessingWithFailStrategyThrowsImmediateRunIneligibleWhenThreeRun() throws {
        let seen = Observations()
        let app = TestApp(tap: { _ in
            for index in 1...4 {
                let identifier = "com.a.export.job\(index)"
                BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { _ in }
                let request = BGContinuedProcessingTaskRequest(
                    identifier: identifier, title: "Export", subtitle: "\(index)")
                request.strategy = .fail
                do { try BGTaskScheduler.shared.submit(request) } catch { seen.note("\(index): \(error)") }
            }
        })
        _ = try simulate(
            [(manifest("com.a", identifiers: ["com.a.export.*"]), app)],
            timeline: [at(1, .open("com.a")), TimelineEntry(at: 2, action: .tap("com.a", action: "export"))],
            duration: 5)
        #expect(seen.lines == ["4: The operation couldn’t be completed. (BGTaskSchedulerErrorDomain error 4.)"])
    }

    @Test func gpuContinuedProcessingNeedsSupportedResourcesAndTheEntitlement() throws {
        let seen = Observations()
        let app = TestApp(tap: { _ in
            seen.note("supported gpu: \(BGTaskScheduler.supportedResources.contains(.gpu))")
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.a.export.1", using: nil) { _ in }
            let request = BGContinuedProcessingTaskRequest(identifier: "com.a.export.1", title: "Render", subtitle: "")
            request.requiredResources = .gpu
            do { try BGTaskScheduler.shared.submit(request) } catch BGTaskScheduler.Error.notPermitted {
                seen.note("notPermitted")
            } catch {}
        })
        var device = DeviceState()
        device.hasBackgroundGPU = true
        var gpuManifest = manifest("com.a", identifiers: ["com.a.export.*"])
        let tap = TimelineEntry(at: 2, action: .tap("com.a", action: "x"))
        let withoutEntitlement = try simulate(
            [(gpuManifest, app)], timeline: [at(1, .open("com.a")), tap], duration: 5, device: device)
        gpuManifest.entitlements = [Entitlement.continuedProcessingGPU]
        let withEntitlement = try simulate(
            [(gpuManifest, app)], timeline: [at(1, .open("com.a")), tap], duration: 5, device: device)
        #expect(seen.lines == ["supported gpu: true", "notPermitted", "supported gpu: true"])
        #expect(withoutEntitlement.of(RecordKind.started, "com.a").isEmpty)
        #expect(withEntitlement.of(RecordKind.started, "com.a", task: "com.a.export.1").count == 1)
    }

    @Test func duplicateRegistrationCrashesTheAppAndTheSimulationGoesOn() throws {
        let crasher = TestApp(launch: { _ in
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.a.refresh", using: nil) { _ in }
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.a.refresh", using: nil) { _ in }
            Issue.record("code after a crash must not run")
        })
        let seen = Observations()
        let survivor = TestApp(launch: { application in seen.note("b launched, state \(application.applicationState)") }
        )
        let records = try simulate(
            [
                (manifest("com.a", identifiers: ["com.a.refresh"]), crasher),
                (manifest("com.b", identifiers: []), survivor),
            ],
            timeline: [at(1, .open("com.a")), at(5, .open("com.b"))], duration: 10)
        #expect(
            records.of(.crashed, "com.a").map(\.reason) == [
                "crash: Launch handler for task with identifier com.a.refresh has already been registered"
            ])
        #expect(seen.lines == ["b launched, state inactive"])
    }

    @Test func applicationStateAndBackgroundTimeRemainingFollowTheLifeCycle() throws {
        let seen = Observations()
        let app = TestApp(
            launch: { application in
                seen.note("launch \(application.applicationState) \(application.backgroundTimeRemaining)")
            },
            background: { application in
                seen.note("background \(application.applicationState) \(application.backgroundTimeRemaining)")
                let id = application.beginBackgroundTask(withName: "save") {
                    seen.note("expiring at \(application.backgroundTimeRemaining)")
                }
                seen.note("began \(id.rawValue) \(id != .invalid)")
            })
        let records = try simulate(
            [(manifest("com.a", identifiers: []), app)], timeline: [at(1, .open("com.a")), at(2, .home)], duration: 60)
        #expect(
            seen.lines == [
                "launch inactive \(Double.greatestFiniteMagnitude)", "background background 30.0", "began 1 true",
                "expiring at 5.0",
            ])
        #expect(
            records.of(.terminated, "com.a").map(\.reason) == [
                "background → not running: watchdog: background task assertion timeout"
            ])
    }

    @Test func endingAnAssertionInItsExpirationHandlerAvoidsTheKill() throws {
        let app = TestApp(background: { application in
            let box = Observations()
            let id = Shared(UIBackgroundTaskIdentifier.invalid)
            id.value = application.beginBackgroundTask(withName: "upload") {
                application.endBackgroundTask(id.value)
                box.note("ended")
            }
        })
        let records = try simulate(
            [(manifest("com.a", identifiers: []), app)], timeline: [at(1, .open("com.a")), at(2, .home)], duration: 60)
        #expect(records.of(.assertionEnded, "com.a").map(\.at.seconds) == [27])
        #expect(records.of(.suspended, "com.a").map(\.at.seconds) == [27])
        #expect(records.of(.terminated, "com.a").isEmpty)
    }

    @Test func simulateLaunchFromKitRunsABlockedRequest() throws {
        let seen = Observations()
        let app = TestApp(
            launch: { _ in
                BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.a.clean", using: nil) { task in
                    seen.note("ran \(task.identifier) \(task is BGProcessingTask)")
                    task.setTaskCompleted(success: true)
                }
                let request = BGProcessingTaskRequest(identifier: "com.a.clean")
                request.requiresExternalPower = true
                try? BGTaskScheduler.shared.submit(request)
            },
            tap: { _ in BGTaskScheduler.shared.simulateLaunch(forTaskWithIdentifier: "com.a.clean") })
        let records = try simulate(
            [(manifest("com.a", identifiers: ["com.a.clean"]), app)],
            timeline: [at(1, .open("com.a")), TimelineEntry(at: 2, action: .tap("com.a", action: "debug"))],
            duration: 10)
        #expect(seen.lines == ["ran com.a.clean true"])
        #expect(
            records.of(.log, "com.a", task: "com.a.clean").map(\.reason) == [
                "Simulating launch for task with identifier com.a.clean"
            ])
    }
}

/// The request and task classes carry Apple's properties to and from the system.
@Suite struct KitClassesTests {
    @Test func requestClassesCarryTheirPropertiesToTheSystem() throws {
        let seen = Observations()
        let app = TestApp(launch: { _ in
            let scheduler = BGTaskScheduler.shared
            for identifier in ["com.a.clean", "com.a.refresh"] {
                scheduler.register(forTaskWithIdentifier: identifier, using: nil) { _ in }
            }
            let processing = BGProcessingTaskRequest(identifier: "com.a.clean")
            processing.requiresNetworkConnectivity = true
            processing.requiresExternalPower = true
            processing.earliestBeginDate = Date(timeIntervalSinceNow: 3600)
            try? scheduler.submit(processing)
            try? scheduler.submit(BGAppRefreshTaskRequest(identifier: "com.a.refresh"))
            scheduler.getPendingTaskRequests { pending in
                for request in pending {
                    let begin = request.earliestBeginDate.map { Int($0.timeIntervalSinceNow.rounded()) }
                    if let copy = request as? BGProcessingTaskRequest {
                        seen.note(
                            "processing \(copy.identifier) \(copy.requiresNetworkConnectivity) \(copy.requiresExternalPower) \(begin ?? -1)"
                        )
                    } else {
                        seen.note("\(type(of: request)) \(request.identifier)")
                    }
                }
            }
        })
        _ = try simulate(
            [(manifest("com.a", identifiers: ["com.a.clean", "com.a.refresh"]), app)],
            timeline: [at(1, .open("com.a"))],
            duration: 5)
        #expect(seen.lines == ["processing com.a.clean true true 3600", "BGAppRefreshTaskRequest com.a.refresh"])
    }

    @Test func continuedProcessingTaskReportsTitleAndProgressToTheSystem() throws {
        let app = TestApp(tap: { _ in
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.a.export.7", using: nil) { task in
                let task = task as! BGContinuedProcessingTask
                task.progress.totalUnitCount = 10
                task.progress.completedUnitCount = 4
                task.updateTitle("Exporting", subtitle: "4 of 10")
            }
            let request = BGContinuedProcessingTaskRequest(
                identifier: "com.a.export.7", title: "Export", subtitle: "10 files")
            try? BGTaskScheduler.shared.submit(request)
        })
        let scenario = Scenario(
            name: "t", source: "t",
            apps: [ScenarioApp(manifest: manifest("com.a", identifiers: ["com.a.export.*"]), code: "a")],
            timeline: [at(1, .open("com.a")), TimelineEntry(at: 2, action: .tap("com.a", action: "export"))],
            duration: 5)
        let simulation = try Simulation(scenario: scenario, catalog: SwiftAppCatalog(["a": { app }]))
        let records = simulation.run()
        let run = try #require(simulation.system.runningTasks.first)
        #expect((run.progressCompleted, run.progressTotal) == (4, 10))
        #expect((run.request.title, run.request.subtitle) == ("Exporting", "4 of 10"))
        #expect(records.of(.log, "com.a", task: "com.a.export.7").map(\.reason) == ["title: Exporting — 4 of 10"])
    }
}
