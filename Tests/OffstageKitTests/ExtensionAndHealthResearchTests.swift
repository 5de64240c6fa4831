import Foundation
import OffstageCore
import OffstageKit
import Testing

/// Issue 16, item 9: `ProcessInfo.performExpiringActivity(withReason:using:)`, how extensions extend their runtime,
/// and `BGHealthResearchTask` with its request, with Apple's API.
@Suite struct ExtensionAndHealthResearchTests {
    let study = "com.study"
    let task = "com.study.upload"

    /// An app that, entering the background at 2 s, performs an expiring activity whose block works `seconds`:
    /// what the block was told, and the records.
    func expiringActivity(reason: String, working seconds: Double) throws -> (told: [String], records: [Record]) {
        let seen = Observations()
        let app = TestApp(background: { _ in
            ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
                seen.note("block \(expired)")
                if !expired { OffstageClock.sleep(seconds: seconds) }
            }
        })
        let records = try simulate(
            [(manifest(study, identifiers: []), app)], timeline: [at(1, .open(BundleID(study))), at(2, .home)],
            duration: 120)
        return (seen.lines, records)
    }

    @Test func performExpiringActivityRunsTheBlockUnderAnAssertionNamedForItsReason() throws {
        let (told, records) = try expiringActivity(reason: "Save draft", working: 10)
        #expect(told == ["block false"])
        #expect(records.of(.assertionBegan, study).map(\.reason) == ["background task 1 (\"Save draft\")"])
        #expect(records.of(.assertionEnded, study).map(\.at.seconds) == [12])
        #expect(records.of(.suspended, study).map(\.at.seconds) == [12])
    }

    /// When the assertion's time runs out while the block still works, the block is called again with `true`.
    @Test func performExpiringActivityCallsTheBlockAgainWithTrueWhenItsTimeRunsOut() throws {
        let (told, records) = try expiringActivity(reason: "Upload", working: 60)
        #expect(told == ["block false", "block true"])
        let expired = try #require(records.of(.assertionExpired, study).first)
        #expect(expired.at.seconds == 2 + Policy.iOS.backgroundTimeAllowance - Policy.iOS.assertionExpirationWarning)
    }

    @Test func healthResearchRequestNeedsItsEntitlementAndRunsAsABGHealthResearchTask() throws {
        let seen = Observations()
        let task = self.task
        let app = TestApp(launch: { _ in
            BGTaskScheduler.shared.register(forTaskWithIdentifier: task, using: nil) { bgTask in
                seen.note("ran \(type(of: bgTask))")
                bgTask.setTaskCompleted(success: true)
            }
            let request = BGHealthResearchTaskRequest(identifier: task)
            seen.note("protection \(request.protectionTypeOfRequiredData)")
            request.protectionTypeOfRequiredData = "NSFileProtectionComplete"
            do {
                try BGTaskScheduler.shared.submit(request)
                seen.note("submitted")
            } catch {
                seen.note("\(error)")
            }
            BGTaskScheduler.shared.getPendingTaskRequests { pending in
                let health = pending.first as? BGHealthResearchTaskRequest
                seen.note("pending \(health.map { "\($0.protectionTypeOfRequiredData)" } ?? "none")")
            }
        })
        var entitled = manifest(study, modes: [.processing], identifiers: [task])
        entitled.entitlements = [Entitlement.healthResearch]
        let timeline = [at(1, .open(BundleID(study))), at(2, .lock)]
        let records = try simulate([(entitled, app)], timeline: timeline, duration: 20 * 60)
        #expect(
            seen.lines == [
                "protection NSFileProtectionCompleteUntilFirstUserAuthentication", "submitted",
                "pending NSFileProtectionComplete", "ran BGHealthResearchTask",
            ])
        #expect(records.of(.started, study, task: task).count == 1)

        let refused = Observations()
        let unentitled = TestApp(launch: { _ in
            BGTaskScheduler.shared.register(forTaskWithIdentifier: task, using: nil) { _ in }
            do {
                try BGTaskScheduler.shared.submit(BGHealthResearchTaskRequest(identifier: task))
            } catch BGTaskScheduler
                .Error.notPermitted
            {
                refused.note("notPermitted")
            } catch {
                refused.note("other \(error)")
            }
        })
        let without = try simulate(
            [(manifest(study, modes: [.processing], identifiers: [task]), unentitled)], timeline: timeline,
            duration: 60)
        #expect(refused.lines == ["notPermitted"])
        #expect(
            without.of(.rejected, study).map(\.reason) == [
                "notPermitted: a health research task requires the entitlement \(Entitlement.healthResearch)"
            ])
    }
}
