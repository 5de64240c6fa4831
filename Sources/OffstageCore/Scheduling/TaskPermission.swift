/// What `BGTaskScheduler.submit(_:)` checks first (§3, §4): whether the app may submit the request at all. A
/// problem is the `notPermitted` error, with the reason its record gives.
extension TaskRequest {
    /// Why an app with `manifest` may not submit this request, or nil: a background mode or an entitlement it
    /// lacks, an identifier its Info.plist does not permit, or for continued processing the user's switch for the
    /// app (`continuedProcessingOff`) and a GPU the device cannot lend in the background (`backgroundGPU`).
    func permissionProblem(in manifest: AppManifest, continuedProcessingOff: Bool, backgroundGPU: Bool) -> String? {
        switch kind {
        case .appRefresh where !manifest.backgroundModes.contains(.fetch):
            return "UIBackgroundModes lacks 'fetch'"
        case .processing where !manifest.backgroundModes.contains(.processing):
            return "UIBackgroundModes lacks 'processing'"
        default: break
        }
        if protectionTypeOfRequiredData != nil, !manifest.entitlements.contains(Entitlement.healthResearch) {
            return "a health research task requires the entitlement \(Entitlement.healthResearch)"
        }
        switch manifest.permission(for: identifier) {
        case .notPermitted:
            return "identifier not in BGTaskSchedulerPermittedIdentifiers"
        case .wildcard where kind != .continuedProcessing:
            return "wildcard identifiers are for continued-processing tasks only"
        default: break
        }
        guard kind == .continuedProcessing else { return nil }
        if continuedProcessingOff {
            return "the user turned continued processing off for this app"
        }
        if requiresGPU {
            if !manifest.entitlements.contains(Entitlement.continuedProcessingGPU) {
                return "requires the GPU without the entitlement \(Entitlement.continuedProcessingGPU)"
            }
            if !backgroundGPU {
                return "requires the GPU, which this device does not support in the background"
            }
        }
        return nil
    }
}
