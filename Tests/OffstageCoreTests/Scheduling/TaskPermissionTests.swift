import Testing

@testable import OffstageCore

/// What `submit` checks first, on its own (§3, §4): the background mode a kind needs, the permitted identifiers,
/// wildcards for continued processing only, and continued processing's switch and GPU.
@Suite struct TaskPermissionTests {
    let app = AppManifest(
        bundleIdentifier: "com.example.app", backgroundModes: [.fetch],
        permittedIdentifiers: ["com.example.app.refresh", "com.example.app.clean", "com.example.app.export.*"])

    func problem(_ request: TaskRequest, off: Bool = false, gpu: Bool = true) -> String? {
        request.permissionProblem(in: app, continuedProcessingOff: off, backgroundGPU: gpu)
    }

    @Test func aKindNeedsItsModeAndAnIdentifierItsInfoPlistEntry() {
        #expect(problem(TaskRequest(identifier: "com.example.app.refresh", kind: .appRefresh)) == nil)
        let clean = TaskRequest(identifier: "com.example.app.clean", kind: .processing)
        #expect(problem(clean) == "UIBackgroundModes lacks 'processing'")
        let unlisted = TaskRequest(identifier: "com.example.app.other", kind: .appRefresh)
        #expect(problem(unlisted) == "identifier not in BGTaskSchedulerPermittedIdentifiers")
        let health = TaskRequest(
            identifier: "com.example.app.refresh", kind: .appRefresh, protectionTypeOfRequiredData: "complete")
        #expect(problem(health)?.hasPrefix("a health research task requires the entitlement") == true)
    }

    @Test func continuedProcessingTakesAWildcardTheUsersSwitchAndForTheGPUItsEntitlementAndDevice() {
        let export = TaskRequest(identifier: "com.example.app.export.photos", kind: .continuedProcessing)
        #expect(problem(export) == nil)
        #expect(problem(export, off: true) == "the user turned continued processing off for this app")
        let refreshByWildcard = TaskRequest(identifier: "com.example.app.export.photos", kind: .appRefresh)
        #expect(problem(refreshByWildcard) == "wildcard identifiers are for continued-processing tasks only")
        let onGPU = TaskRequest(
            identifier: "com.example.app.export.video", kind: .continuedProcessing, requiresGPU: true)
        #expect(problem(onGPU)?.hasPrefix("requires the GPU without the entitlement") == true)
        let entitled = AppManifest(
            bundleIdentifier: "com.example.app", permittedIdentifiers: ["com.example.app.export.*"],
            entitlements: [Entitlement.continuedProcessingGPU])
        let noGPU = onGPU.permissionProblem(in: entitled, continuedProcessingOff: false, backgroundGPU: false)
        #expect(noGPU == "requires the GPU, which this device does not support in the background")
        #expect(onGPU.permissionProblem(in: entitled, continuedProcessingOff: false, backgroundGPU: true) == nil)
    }
}
