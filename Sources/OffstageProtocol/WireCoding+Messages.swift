import OffstageCore

/// What apps and `ctl` send, on the wire.
extension ClientMessage: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("id", id)
            try members.field("body", body)
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (id, body) = try reader.fields(("id", Int.self), ("body", Body.self))
        self.init(id: id, body: body)
    }
}

extension ClientMessage.Body: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("call", ("call", "bundle"), Self.call(call:bundle:)) {
            if case .call(let call, let bundle) = $0 { (call, bundle) } else { nil }
        },
        WireCase("work", "_0", Self.work(_:)) { if case .work(let report) = $0 { report } else { nil } },
        WireCase("control", "command", Self.control(command:)) {
            if case .control(let command) = $0 { command } else { nil }
        },
    ]
}

extension WorkReport: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("cpuSeconds", cpuSeconds)
            try members.field("gpuSeconds", gpuSeconds)
            try members.field("bytes", bytes)
            try members.field("seconds", seconds)
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (cpu, gpu, bytes, seconds) = try reader.fields(
            ("cpuSeconds", Double.self), ("gpuSeconds", Double.self), ("bytes", Int.self), ("seconds", Double.self))
        self.init(cpuSeconds: cpu, gpuSeconds: gpu, bytes: bytes, seconds: seconds)
    }
}

/// What the daemon sends, on the wire.
extension ServerMessage: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("result", ("id", "result"), Self.result(id:result:)) {
            if case .result(let id, let result) = $0 { (id, result) } else { nil }
        },
        WireCase("effect", "effect", Self.effect(effect:)) {
            if case .effect(let effect) = $0 { effect } else { nil }
        },
        WireCase("error", ("id", "message"), Self.error(id:message:)) {
            if case .error(let id, let message) = $0 { (id, message) } else { nil }
        },
        WireCase("userAction", "action", Self.userAction(action:)) {
            if case .userAction(let action) = $0 { action } else { nil }
        },
        WireCase("reply", ("id", "reply"), Self.reply(id:reply:)) {
            if case .reply(let id, let reply) = $0 { (id, reply) } else { nil }
        },
    ]
}
