import Foundation
import Testing

@testable import OffstageCore
@testable import OffstageProtocol

/// Each family of types the protocol codes by hand (`WireCoded`) writes the bytes the general coder wrote
/// (`WireBytes.familyMessages`) and reads them back, for values that set every member (optionals set and left out).
@Suite struct WireCodedFamiliesTests {
    static let clock = WallClock(epochAtZero: 1_795_000_000)

    /// Records with a typed detail (and so a `value` or `taskKind` spelled out) and without.
    static let records: [Record] = [
        Record(
            at: Instant(seconds: 12.25), app: "com.a", kind: .started, task: "com.a.refresh",
            detail: .started(kind: .appRefresh, cause: .allConstraintsSatisfied), on: clock),
        Record(at: Instant(seconds: 0), app: "com.a", kind: .contentAge, detail: .contentAge(seconds: 90), on: clock),
        Record(at: Instant(seconds: -1), app: nil, kind: .device, reason: "battery \"low\""),
    ]

    /// A device and settings with every member away from its default.
    static var status: DaemonStatus {
        var device = DeviceState()
        (device.batteryLevel, device.isCharging, device.network, device.thermalState) = (
            0.125, true, .cellular, .serious
        )
        (device.isScreenOn, device.isLocked, device.hasBackgroundGPU) = (false, true, true)
        (device.resumeCallback, device.idleSince) = (ResumeCallback.allCases.last!, Instant(seconds: 30))
        device.battery = Battery(capacityWattHours: 10, chargingWatts: 20, taperLevel: 0.5)
        (device.simulatesBattery, device.isShutDown) = (true, true)
        var settings = UserSettings()
        (settings.backgroundAppRefresh, settings.backgroundAppRefreshRestricted) = (false, true)
        // One app per set: a set is written in its hash order, which differs from one process to the next.
        (settings.backgroundAppRefreshOff, settings.continuedProcessingOff) = (["com.a"], ["com.c"])
        (settings.lowPowerMode, settings.lowDataMode, settings.fullAccessKeyboards) = (true, true, ["com.k"])
        return DaemonStatus(
            pid: -1, protocolVersion: 1, uptimeSeconds: 0.5, freezer: "cgroup v2 freezer", socket: "/s",
            stateDirectory: "/d",
            device: device, overrides: DeviceOverrides(thermal: .critical), settings: settings, loadAverage: nil,
            memoryPressure: 3.5, installedApps: 0, runningApps: 0, nextDueIn: nil, memoryWritePending: true)
    }

    /// Every effect but a task's start (whose run the core alone makes), each reason, event and presentation.
    static let effects: [Effect] =
        [
            TerminationReason.userForceQuit, .memoryPressure, .watchdog("slow"), .crash("boom"), .exited("0"),
            .resourceLimit("cpu"), .deviceShutdown,
        ].map { .terminate("com.a", $0) }
        + [
            BackgroundEvent.remoteNotification(payload: "{\"a\":1}"), .fetch, .location(.significantChange),
            .location(.enteredRegion("home")), .location(.exitedRegion("work")),
            .urlSessionEvents(session: "s", tasks: [1, 2], wakesApp: true),
        ].map { .deliverBackgroundEvent("com.a", $0, token: 3) }
        + [
            .presentNotification("com.a", .willPresent(identifier: "n")),
            .presentNotification("com.a", .didReceive(identifier: "n", text: NotificationText(title: "t", body: "b"))),
            .launch("com.a", .backgroundTask), .resume("com.a"), .setCPUPriority("com.a", CPUPriority.allCases.last!),
            .startTask(
                "com.a",
                TaskRun(
                    id: 7, app: "com.a", request: TaskRequest(identifier: "r", kind: .appRefresh),
                    startedAt: Instant(seconds: 2.5), expiresAt: Instant(seconds: 32.5), delivered: false)),
            .startTask(
                "com.a",
                TaskRun(
                    id: 8, app: "com.a", request: TaskRequest(identifier: "c", kind: .continuedProcessing),
                    startedAt: Instant(seconds: 3), expiredAt: Instant(seconds: 9), delivered: true,
                    progressCompleted: 3, progressTotal: 10)),
        ] + records.map { .record($0) }

    static let messages: [ServerMessage] =
        effects.map { .effect(effect: $0) } + [
            .reply(
                id: 1, reply: .records(records: records.map { LoggedRecord(time: "2026-11-29T12:00:00Z", record: $0) })),
            .reply(id: 2, reply: .status(status: status)),
            .reply(
                id: 3,
                reply: .progress(tasks: [
                    ContinuedProcessingUI(
                        TaskRun(
                            id: 4, app: "com.a", request: TaskRequest(identifier: "x", kind: .continuedProcessing),
                            startedAt: Instant(seconds: 1), expiresAt: nil, expiredAt: nil, delivered: true),
                        question: "Continue?")
                ])),
        ]

    @Test func everyFamilyIsWrittenAsItsRecordedBytesAndReadBack() throws {
        #expect(Self.messages.count == WireBytes.familyMessages.count)
        for (message, json) in zip(Self.messages, WireBytes.familyMessages) {
            #expect(try WireCoderTests.frameJSON(message) == json)
            #expect(try WireCoderTests.read(ServerMessage.self, json) == message)
        }
    }

    /// A record's `value` and `taskKind` are spelled out for readers of the JSON, never read back: a record read
    /// keeps what its detail says.
    @Test func aRecordsSpelledOutMembersAreReadOnlyToBeChecked() throws {
        let json = Array(
            #"{"version":1,"payload":{"reply":{"id":1,"reply":{"records":{"records":[{"time":"t","record":{"at":1,"kind":"log","reason":"r","value":"x"}}]}}}}}"#
                .utf8)
        let failure = json.withUnsafeBufferPointer { body in
            Result { () throws(Frame.Failure) in try Frame.decode(ServerMessage.self, body: body) }
        }
        guard case .failure(let error) = failure else {
            Issue.record("a record whose value is not a number was read")
            return
        }
        #expect("\(error)".contains("at payload.reply.reply.records.records[0].record.value: expected a number"))
    }
}
