import Foundation
import Testing

@testable import OffstageCore
@testable import OffstageProtocol

/// The core's values that ride inside messages (system events, record details, the progress UI, launch options,
/// background transfers, notification schedules), every case of each and of the types they carry: written as the
/// protocol's recorded bytes (`WireCoreValuesBytes`) and read back as they went in.
@Suite struct WireCoreValuesTests {
    static let clock = WallClock(epochAtZero: 1_795_000_000)

    /// Every system event `ctl event` may send.
    static let events: [SystemEvent] = [
        .open("com.a"), .home, .lock, .unlock, .screenOn, .notificationShown("com.a"),
        .notificationTapped("com.a", identifier: "n1"), .notificationTapped("com.a", identifier: nil), .openSwitcher,
        .swipeAway("com.a"), .interruptionBegan, .interruptionEnded(accepted: true), .setBackgroundAppRefresh(false),
        .setBackgroundAppRefreshRestricted(true), .setAppBackgroundAppRefresh("com.a", false),
        .setContinuedProcessing("com.a", true), .setLowPowerMode(true), .setLowDataMode(false),
        .setBattery(level: 0.25, charging: true), .setNetwork(.cellular), .setThermalState(.critical),
        .setResumeCallback(ResumeCallback.allCases.last!), .memoryPressure(bytes: 1 << 30),
        .setMemoryFootprint("com.a", bytes: 123),
        .setWallClock(WallClock(epochAtZero: 1_795_000_000.5, utcOffset: -3600)),
        .processExited("com.a", reason: "exit \"1\""),
        .resourceUsage(
            "com.a", ResourceUsage(cpuSeconds: 1.5, gpuSeconds: 0.25, wifiBytes: 10, cellularBytes: 20, interval: 60)),
        .simulateLaunch("com.a", identifier: "r"), .simulateExpiration("com.a", identifier: "r"), .tick,
        .cancelContinuedProcessingTask("com.a", identifier: "c"),
        .answerContinuedProcessingQuestion("com.a", identifier: "c", answer: .proceed),
        .answerContinuedProcessingQuestion("com.a", identifier: "c", answer: .stop), .setCharging(false),
        .backgroundPush("com.a", payload: "{\"k\":1}"), .locationEvent("com.a", .enteredRegion("home")),
        .locationEvent("com.a", .significantChange),
    ]

    /// Every record detail, each cause, outcome, receiver, transfer fact, signal and notification fact.
    static let details: [RecordDetail] =
        [
            .deferred(blockers: []),
            .deferred(blockers: [
                Blocker(constraint: "network", reason: "no network", until: nil),
                Blocker(constraint: "earliestBeginDate", reason: "not before", until: Instant(seconds: 60)),
            ]),
            .launched(reason: .user, purpose: "opened"), .launched(reason: .backgroundTask, purpose: "refresh"),
            .completed(success: true, seconds: 2.5), .killed(reason: .watchdog("slow")),
            .stateChanged(from: .background, to: .suspended), .suspendedWithoutWork,
            .terminated(from: .suspended, reason: .memoryPressure), .assertionBegan(number: 3, name: "Export"),
            .assertionBegan(number: 4, name: nil), .assertionRefused(name: nil), .assertionRefused(name: "x"),
            .assertionUnavailableInExtension(name: "y"), .assertionEnded(number: 3),
            .assertionsExpiring(numbers: [1, 2], secondsLeft: 5), .assertionBegunLate(number: 6),
            .pushCoalesced(arrivedAt: Instant(seconds: 12.5), payload: "p"), .pushDropped(.modeMissing),
            .pushDropped(.swipedAway), .heldPushDiscarded(payload: "p", because: "force-quit"),
            .handlerCalled(result: .newData, seconds: 1.25), .contentAge(seconds: 90), .contentAge(seconds: nil),
        ]
        + [RecordDetail.StartCause.allConstraintsSatisfied, .userStarted, .roomInQueue, .simulatedLaunch].map {
            .started(kind: .appRefresh, cause: $0)
        }
        + [
            RecordDetail.Expiration.runtimeUsedUp(seconds: 30), .interrupted(words: "network lost"),
            .stalled(seconds: 60), .userCancelled, .userChoseToStop, .simulated,
        ].map { .expired(cause: $0) }
        + [RecordDetail.Submission.pending, .replacing, .restored, .startsNow, .queued(behind: 2)].map {
            .submitted(kind: .processing, outcome: $0)
        }
        + [CallbackReceiver.appDelegate, .sceneDelegate(connecting: true), .noScene, .appExtension].map {
            .callback(.didEnterBackground, receiver: $0)
        }
        + [
            TransferFact.accepted(discretionary: true, startedInBackground: false), .waiting(for: ["Wi-Fi", "power"]),
            .running(secondsLeft: 12.5), .finished(bytes: 1000), .cancelled(byUser: true),
            .wakeHeld(until: Instant(seconds: 600), wakes: 3), .waitingForLaunch,
        ].map { .transfer($0) }
        + [
            LaunchSignal.timeOfDay(hour: 8), .habit(days: 3, of: 7), .screenOn(hour: 9), .afterApp("com.b"),
            .recentUse, .notification, .push, .charger(plugged: true),
        ].enumerated().map {
            .launchLikelihood(
                LaunchLikelihood(probability: 0.42, signal: $0.element, window: 900, learnt: $0.offset % 2 == 0))
        }
        + [
            NotificationFact.scheduled(identifier: "n", at: Instant(seconds: 5)),
            .delivered(identifier: "n", inForeground: true), .tapped(identifier: "n"), .removed(identifiers: ["a"]),
            .removed(identifiers: nil),
        ].map { .notification($0) }

    /// The progress UI of a task that runs and asks, and of one that ended in each outcome.
    static var progress: [ContinuedProcessingUI] {
        let run = TaskRun(
            id: 4, app: "com.a",
            request: TaskRequest(identifier: "x", kind: .continuedProcessing, title: "Export", subtitle: "1/3"),
            startedAt: Instant(seconds: 1), delivered: true, progressCompleted: 3, progressTotal: 10)
        let ended = ContinuedProcessingUI.Outcome.allCases.map { outcome in
            var ui = ContinuedProcessingUI(run)
            (ui.outcome, ui.dismissAt) = (outcome, Instant(seconds: 20))
            return ui
        }
        return [ContinuedProcessingUI(run, question: "Continue?")] + ended
    }

    static let clientMessages: [ClientMessage] =
        events.enumerated().map { ClientMessage(id: $0.offset, body: .control(command: .event(event: $0.element))) }
        + [
            BackgroundTransferRequest(session: "s", task: 1, url: "https://a.example/f", seconds: 2.5, bytes: 100),
            BackgroundTransferRequest(
                session: "bg", task: 2, url: "https://a.example/g", seconds: 0, bytes: 0, isDiscretionary: true,
                sendsLaunchEvents: false),
        ].map { ClientMessage(id: 100, body: .call(call: .startBackgroundTransfer($0), bundle: "com.a")) }
        + [
            LocalNotificationSchedule(identifier: "n", fireEpochs: []),
            LocalNotificationSchedule(
                identifier: "m", fireEpochs: [1_795_000_060, 1_795_086_460.5], repeatEvery: 3600,
                text: NotificationText(title: "T", subtitle: "S", body: "B")),
        ].map { ClientMessage(id: 101, body: .call(call: .scheduleNotification($0), bundle: nil)) }

    static var serverMessages: [ServerMessage] {
        details.enumerated().map { index, detail in
            .effect(
                effect: .record(
                    Record(
                        at: Instant(seconds: Double(index)), app: "com.a", kind: .log, task: "t", detail: detail,
                        on: clock)))
        } + [
            .reply(id: 1, reply: .progress(tasks: progress)),
            .result(id: 2, result: .launchOptions(LaunchOptions())),
            .result(id: 3, result: .launchOptions(LaunchOptions(remoteNotification: "{\"a\":1}", location: true))),
        ]
    }

    @Test func everyValueIsWrittenAsTheProtocolsBytesAndReadBack() throws {
        let messages: [any Codable & Equatable & Sendable & WireCoded] = Self.clientMessages + Self.serverMessages
        #expect(messages.count == WireCoreValuesBytes.messages.count)
        for (message, json) in zip(messages, WireCoreValuesBytes.messages) {
            #expect(try WireCoderTests.frameJSON(message) == json)
        }
        for message in Self.clientMessages {
            let json = try HandCodingTests.handCoded(message)
            #expect(try json.withUnsafeBufferPointer { try Frame.decode(ClientMessage.self, body: $0) } == message)
        }
        for message in Self.serverMessages {
            let json = try HandCodingTests.handCoded(message)
            #expect(try json.withUnsafeBufferPointer { try Frame.decode(ServerMessage.self, body: $0) } == message)
        }
    }
}
