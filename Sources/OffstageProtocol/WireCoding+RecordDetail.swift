package import OffstageCore

/// What a record says, as typed facts, on the wire (a record's `detail`).
extension RecordDetail: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .deferred(let blockers): try out.enumCase("deferred", ("blockers", blockers))
        case .launched(let reason, let purpose): try out.enumCase("launched", ("reason", reason), ("purpose", purpose))
        case .started(let kind, let cause): try out.enumCase("started", ("kind", kind), ("cause", cause))
        case .completed(let success, let seconds):
            try out.enumCase("completed", ("success", success), ("seconds", seconds))
        case .expired(let cause): try out.enumCase("expired", ("cause", cause))
        case .killed(let reason): try out.enumCase("killed", ("reason", reason))
        case .submitted(let kind, let outcome): try out.enumCase("submitted", ("kind", kind), ("outcome", outcome))
        case .callback(let callback, let receiver):
            try out.enumCase("callback", ("_0", callback), ("receiver", receiver))
        case .stateChanged(let from, let to): try out.enumCase("stateChanged", ("from", from), ("to", to))
        case .suspendedWithoutWork: out.enumCase("suspendedWithoutWork")
        case .terminated(let from, let reason): try out.enumCase("terminated", ("from", from), ("reason", reason))
        case .assertionBegan(let number, let name):
            try out.enumCase("assertionBegan", ("number", number), ("name", name))
        case .assertionRefused(let name): try out.enumCase("assertionRefused", ("name", name))
        case .assertionUnavailableInExtension(let name):
            try out.enumCase("assertionUnavailableInExtension", ("name", name))
        case .assertionEnded(let number): try out.enumCase("assertionEnded", ("number", number))
        case .assertionsExpiring(let numbers, let secondsLeft):
            try out.enumCase("assertionsExpiring", ("numbers", numbers), ("secondsLeft", secondsLeft))
        case .assertionBegunLate(let number): try out.enumCase("assertionBegunLate", ("number", number))
        case .pushCoalesced(let arrivedAt, let payload):
            try out.enumCase("pushCoalesced", ("arrivedAt", arrivedAt), ("payload", payload))
        case .pushDropped(let why): try out.enumCase("pushDropped", ("_0", why))
        case .heldPushDiscarded(let payload, let because):
            try out.enumCase("heldPushDiscarded", ("payload", payload), ("because", because))
        case .handlerCalled(let result, let seconds):
            try out.enumCase("handlerCalled", ("result", result), ("seconds", seconds))
        case .contentAge(let seconds): try out.enumCase("contentAge", ("seconds", seconds))
        case .transfer(let fact): try out.enumCase("transfer", ("_0", fact))
        case .launchLikelihood(let likelihood): try out.enumCase("launchLikelihood", ("_0", likelihood))
        case .notification(let fact): try out.enumCase("notification", ("_0", fact))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("deferred", "blockers", Self.deferred(blockers:)),
        WireCase("launched", ("reason", "purpose"), Self.launched(reason:purpose:)),
        WireCase("started", ("kind", "cause"), Self.started(kind:cause:)),
        WireCase("completed", ("success", "seconds"), Self.completed(success:seconds:)),
        WireCase("expired", "cause", Self.expired(cause:)),
        WireCase("killed", "reason", Self.killed(reason:)),
        WireCase("submitted", ("kind", "outcome"), Self.submitted(kind:outcome:)),
        WireCase("callback", ("_0", "receiver"), Self.callback(_:receiver:)),
        WireCase("stateChanged", ("from", "to"), Self.stateChanged(from:to:)),
        WireCase("suspendedWithoutWork", .suspendedWithoutWork),
        WireCase("terminated", ("from", "reason"), Self.terminated(from:reason:)),
        WireCase("assertionBegan", ("number", "name"), Self.assertionBegan(number:name:)),
        WireCase("assertionRefused", "name", Self.assertionRefused(name:)),
        WireCase("assertionUnavailableInExtension", "name", Self.assertionUnavailableInExtension(name:)),
        WireCase("assertionEnded", "number", Self.assertionEnded(number:)),
        WireCase("assertionsExpiring", ("numbers", "secondsLeft"), Self.assertionsExpiring(numbers:secondsLeft:)),
        WireCase("assertionBegunLate", "number", Self.assertionBegunLate(number:)),
        WireCase("pushCoalesced", ("arrivedAt", "payload"), Self.pushCoalesced(arrivedAt:payload:)),
        WireCase("pushDropped", "_0", Self.pushDropped(_:)),
        WireCase("heldPushDiscarded", ("payload", "because"), Self.heldPushDiscarded(payload:because:)),
        WireCase("handlerCalled", ("result", "seconds"), Self.handlerCalled(result:seconds:)),
        WireCase("contentAge", "seconds", Self.contentAge(seconds:)),
        WireCase("transfer", "_0", Self.transfer(_:)),
        WireCase("launchLikelihood", "_0", Self.launchLikelihood(_:)),
        WireCase("notification", "_0", Self.notification(_:)),
    ]
}

extension RecordDetail.Expiration: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .runtimeUsedUp(let seconds): try out.enumCase("runtimeUsedUp", ("seconds", seconds))
        case .interrupted(let words): try out.enumCase("interrupted", ("words", words))
        case .stalled(let seconds): try out.enumCase("stalled", ("seconds", seconds))
        case .userCancelled: out.enumCase("userCancelled")
        case .userChoseToStop: out.enumCase("userChoseToStop")
        case .simulated: out.enumCase("simulated")
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("runtimeUsedUp", "seconds", Self.runtimeUsedUp(seconds:)),
        WireCase("interrupted", "words", Self.interrupted(words:)),
        WireCase("stalled", "seconds", Self.stalled(seconds:)),
        WireCase("userCancelled", .userCancelled),
        WireCase("userChoseToStop", .userChoseToStop),
        WireCase("simulated", .simulated),
    ]
}

extension RecordDetail.Submission: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .pending: out.enumCase("pending")
        case .replacing: out.enumCase("replacing")
        case .restored: out.enumCase("restored")
        case .startsNow: out.enumCase("startsNow")
        case .queued(let behind): try out.enumCase("queued", ("behind", behind))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("pending", .pending),
        WireCase("replacing", .replacing),
        WireCase("restored", .restored),
        WireCase("startsNow", .startsNow),
        WireCase("queued", "behind", Self.queued(behind:)),
    ]
}

extension CallbackReceiver: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .appDelegate: out.enumCase("appDelegate")
        case .sceneDelegate(let connecting): try out.enumCase("sceneDelegate", ("connecting", connecting))
        case .noScene: out.enumCase("noScene")
        case .appExtension: out.enumCase("appExtension")
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("appDelegate", .appDelegate),
        WireCase("sceneDelegate", "connecting", Self.sceneDelegate(connecting:)),
        WireCase("noScene", .noScene),
        WireCase("appExtension", .appExtension),
    ]
}

extension TransferFact: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .accepted(let discretionary, let inBackground):
            try out.enumCase("accepted", ("discretionary", discretionary), ("startedInBackground", inBackground))
        case .waiting(let conditions): try out.enumCase("waiting", ("for", conditions))
        case .running(let secondsLeft): try out.enumCase("running", ("secondsLeft", secondsLeft))
        case .finished(let bytes): try out.enumCase("finished", ("bytes", bytes))
        case .cancelled(let byUser): try out.enumCase("cancelled", ("byUser", byUser))
        case .wakeHeld(let until, let wakes): try out.enumCase("wakeHeld", ("until", until), ("wakes", wakes))
        case .waitingForLaunch: out.enumCase("waitingForLaunch")
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase(
            "accepted", ("discretionary", "startedInBackground"), Self.accepted(discretionary:startedInBackground:)),
        WireCase("waiting", "for", Self.waiting(for:)),
        WireCase("running", "secondsLeft", Self.running(secondsLeft:)),
        WireCase("finished", "bytes", Self.finished(bytes:)),
        WireCase("cancelled", "byUser", Self.cancelled(byUser:)),
        WireCase("wakeHeld", ("until", "wakes"), Self.wakeHeld(until:wakes:)),
        WireCase("waitingForLaunch", .waitingForLaunch),
    ]
}

extension NotificationFact: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .scheduled(let identifier, let at): try out.enumCase("scheduled", ("identifier", identifier), ("at", at))
        case .delivered(let identifier, let inForeground):
            try out.enumCase("delivered", ("identifier", identifier), ("inForeground", inForeground))
        case .tapped(let identifier): try out.enumCase("tapped", ("identifier", identifier))
        case .removed(let identifiers): try out.enumCase("removed", ("identifiers", identifiers))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("scheduled", ("identifier", "at"), Self.scheduled(identifier:at:)),
        WireCase("delivered", ("identifier", "inForeground"), Self.delivered(identifier:inForeground:)),
        WireCase("tapped", "identifier", Self.tapped(identifier:)),
        WireCase("removed", "identifiers", Self.removed(identifiers:)),
    ]
}

extension LaunchSignal: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .timeOfDay(let hour): try out.enumCase("timeOfDay", ("hour", hour))
        case .habit(let days, let of): try out.enumCase("habit", ("days", days), ("of", of))
        case .screenOn(let hour): try out.enumCase("screenOn", ("hour", hour))
        case .afterApp(let app): try out.enumCase("afterApp", ("_0", app))
        case .recentUse: out.enumCase("recentUse")
        case .notification: out.enumCase("notification")
        case .push: out.enumCase("push")
        case .charger(let plugged): try out.enumCase("charger", ("plugged", plugged))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("timeOfDay", "hour", Self.timeOfDay(hour:)),
        WireCase("habit", ("days", "of"), Self.habit(days:of:)),
        WireCase("screenOn", "hour", Self.screenOn(hour:)),
        WireCase("afterApp", "_0", Self.afterApp(_:)),
        WireCase("recentUse", .recentUse),
        WireCase("notification", .notification),
        WireCase("push", .push),
        WireCase("charger", "plugged", Self.charger(plugged:)),
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
