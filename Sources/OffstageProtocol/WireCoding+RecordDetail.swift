package import OffstageCore

/// What a record says, as typed facts, on the wire (a record's `detail`).
extension RecordDetail: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("deferred", "blockers", Self.deferred(blockers:)) {
            if case .deferred(let blockers) = $0 { blockers } else { nil }
        },
        WireCase("launched", ("reason", "purpose"), Self.launched(reason:purpose:)) {
            if case .launched(let reason, let purpose) = $0 { (reason, purpose) } else { nil }
        },
        WireCase("started", ("kind", "cause"), Self.started(kind:cause:)) {
            if case .started(let kind, let cause) = $0 { (kind, cause) } else { nil }
        },
        WireCase("completed", ("success", "seconds"), Self.completed(success:seconds:)) {
            if case .completed(let success, let seconds) = $0 { (success, seconds) } else { nil }
        },
        WireCase("expired", "cause", Self.expired(cause:)) { if case .expired(let cause) = $0 { cause } else { nil } },
        WireCase("killed", "reason", Self.killed(reason:)) { if case .killed(let reason) = $0 { reason } else { nil } },
        WireCase("submitted", ("kind", "outcome"), Self.submitted(kind:outcome:)) {
            if case .submitted(let kind, let outcome) = $0 { (kind, outcome) } else { nil }
        },
        WireCase("callback", ("_0", "receiver"), Self.callback(_:receiver:)) {
            if case .callback(let callback, let receiver) = $0 { (callback, receiver) } else { nil }
        },
        WireCase("stateChanged", ("from", "to"), Self.stateChanged(from:to:)) {
            if case .stateChanged(let from, let to) = $0 { (from, to) } else { nil }
        },
        WireCase("suspendedWithoutWork", .suspendedWithoutWork),
        WireCase("terminated", ("from", "reason"), Self.terminated(from:reason:)) {
            if case .terminated(let from, let reason) = $0 { (from, reason) } else { nil }
        },
        WireCase("assertionBegan", ("number", "name"), Self.assertionBegan(number:name:)) {
            if case .assertionBegan(let number, let name) = $0 { (number, name) } else { nil }
        },
        WireCase("assertionRefused", "name", Self.assertionRefused(name:)) {
            if case .assertionRefused(let name) = $0 { name } else { nil }
        },
        WireCase("assertionUnavailableInExtension", "name", Self.assertionUnavailableInExtension(name:)) {
            if case .assertionUnavailableInExtension(let name) = $0 { name } else { nil }
        },
        WireCase("assertionEnded", "number", Self.assertionEnded(number:)) {
            if case .assertionEnded(let number) = $0 { number } else { nil }
        },
        WireCase("assertionsExpiring", ("numbers", "secondsLeft"), Self.assertionsExpiring(numbers:secondsLeft:)) {
            if case .assertionsExpiring(let numbers, let secondsLeft) = $0 { (numbers, secondsLeft) } else { nil }
        },
        WireCase("assertionBegunLate", "number", Self.assertionBegunLate(number:)) {
            if case .assertionBegunLate(let number) = $0 { number } else { nil }
        },
        WireCase("pushCoalesced", ("arrivedAt", "payload"), Self.pushCoalesced(arrivedAt:payload:)) {
            if case .pushCoalesced(let arrivedAt, let payload) = $0 { (arrivedAt, payload) } else { nil }
        },
        WireCase("pushDropped", "_0", Self.pushDropped(_:)) { if case .pushDropped(let why) = $0 { why } else { nil } },
        WireCase("heldPushDiscarded", ("payload", "because"), Self.heldPushDiscarded(payload:because:)) {
            if case .heldPushDiscarded(let payload, let because) = $0 { (payload, because) } else { nil }
        },
        WireCase("handlerCalled", ("result", "seconds"), Self.handlerCalled(result:seconds:)) {
            if case .handlerCalled(let result, let seconds) = $0 { (result, seconds) } else { nil }
        },
        WireCase("contentAge", "seconds", Self.contentAge(seconds:)) {
            if case .contentAge(let seconds) = $0 { seconds } else { nil }
        },
        WireCase("transfer", "_0", Self.transfer(_:)) { if case .transfer(let fact) = $0 { fact } else { nil } },
        WireCase("launchLikelihood", "_0", Self.launchLikelihood(_:)) {
            if case .launchLikelihood(let likelihood) = $0 { likelihood } else { nil }
        },
        WireCase("notification", "_0", Self.notification(_:)) {
            if case .notification(let fact) = $0 { fact } else { nil }
        },
    ]
}

extension RecordDetail.Expiration: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("runtimeUsedUp", "seconds", Self.runtimeUsedUp(seconds:)) {
            if case .runtimeUsedUp(let seconds) = $0 { seconds } else { nil }
        },
        WireCase("interrupted", "words", Self.interrupted(words:)) {
            if case .interrupted(let words) = $0 { words } else { nil }
        },
        WireCase("stalled", "seconds", Self.stalled(seconds:)) {
            if case .stalled(let seconds) = $0 { seconds } else { nil }
        },
        WireCase("userCancelled", .userCancelled),
        WireCase("userChoseToStop", .userChoseToStop),
        WireCase("simulated", .simulated),
    ]
}

extension RecordDetail.Submission: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("pending", .pending),
        WireCase("replacing", .replacing),
        WireCase("restored", .restored),
        WireCase("startsNow", .startsNow),
        WireCase("queued", "behind", Self.queued(behind:)) { if case .queued(let behind) = $0 { behind } else { nil } },
    ]
}

extension CallbackReceiver: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("appDelegate", .appDelegate),
        WireCase("sceneDelegate", "connecting", Self.sceneDelegate(connecting:)) {
            if case .sceneDelegate(let connecting) = $0 { connecting } else { nil }
        },
        WireCase("noScene", .noScene),
        WireCase("appExtension", .appExtension),
    ]
}

extension TransferFact: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase(
            "accepted", ("discretionary", "startedInBackground"), Self.accepted(discretionary:startedInBackground:)
        ) {
            if case .accepted(let discretionary, let inBackground) = $0 { (discretionary, inBackground) } else { nil }
        },
        WireCase("waiting", "for", Self.waiting(for:)) {
            if case .waiting(let conditions) = $0 { conditions } else { nil }
        },
        WireCase("running", "secondsLeft", Self.running(secondsLeft:)) {
            if case .running(let secondsLeft) = $0 { secondsLeft } else { nil }
        },
        WireCase("finished", "bytes", Self.finished(bytes:)) {
            if case .finished(let bytes) = $0 { bytes } else { nil }
        },
        WireCase("cancelled", "byUser", Self.cancelled(byUser:)) {
            if case .cancelled(let byUser) = $0 { byUser } else { nil }
        },
        WireCase("wakeHeld", ("until", "wakes"), Self.wakeHeld(until:wakes:)) {
            if case .wakeHeld(let until, let wakes) = $0 { (until, wakes) } else { nil }
        },
        WireCase("waitingForLaunch", .waitingForLaunch),
    ]
}

extension NotificationFact: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("scheduled", ("identifier", "at"), Self.scheduled(identifier:at:)) {
            if case .scheduled(let identifier, let at) = $0 { (identifier, at) } else { nil }
        },
        WireCase("delivered", ("identifier", "inForeground"), Self.delivered(identifier:inForeground:)) {
            if case .delivered(let identifier, let inForeground) = $0 { (identifier, inForeground) } else { nil }
        },
        WireCase("tapped", "identifier", Self.tapped(identifier:)) {
            if case .tapped(let identifier) = $0 { identifier } else { nil }
        },
        WireCase("removed", "identifiers", Self.removed(identifiers:)) {
            if case .removed(let identifiers) = $0 { identifiers } else { nil }
        },
    ]
}

extension LaunchSignal: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("timeOfDay", "hour", Self.timeOfDay(hour:)) {
            if case .timeOfDay(let hour) = $0 { hour } else { nil }
        },
        WireCase("habit", ("days", "of"), Self.habit(days:of:)) {
            if case .habit(let days, let of) = $0 { (days, of) } else { nil }
        },
        WireCase("screenOn", "hour", Self.screenOn(hour:)) { if case .screenOn(let hour) = $0 { hour } else { nil } },
        WireCase("afterApp", "_0", Self.afterApp(_:)) { if case .afterApp(let app) = $0 { app } else { nil } },
        WireCase("recentUse", .recentUse),
        WireCase("notification", .notification),
        WireCase("push", .push),
        WireCase("charger", "plugged", Self.charger(plugged:)) {
            if case .charger(let plugged) = $0 { plugged } else { nil }
        },
    ]
}

/// A likelihood as the core codes it: the probability, its signal, its window and whether it was learnt (when a
/// habit next rises is the model's to work out again, not sent).
extension LaunchLikelihood: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(("probability", probability), ("signal", signal), ("window", window), ("learnt", learnt))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (probability, signal, window, learnt) = try reader.fields(
            ("probability", Double.self), ("signal", LaunchSignal.self), ("window", Double.self),
            ("learnt", Bool.self))
        self.init(probability: probability, signal: signal, window: window, learnt: learnt)
    }
}

/// A constraint that blocks a request: its name, its words, and when it lifts by itself (left out if it does not).
extension Blocker: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(("constraint", constraint), ("reason", reason), ("until", until))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (constraint, reason, until) = try reader.fields(
            ("constraint", String.self), ("reason", String.self), ("until", Instant?.self))
        self.init(constraint: constraint, reason: reason, until: until)
    }
}

extension RecordDetail.StartCause: WireCoded {}
extension RecordDetail.PushDrop: WireCoded {}
