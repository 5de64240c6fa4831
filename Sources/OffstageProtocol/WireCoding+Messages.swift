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
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .call(let call, let bundle): try out.enumCase("call", ("call", call), ("bundle", bundle))
        case .work(let report): try out.enumCase("work", ("_0", report))
        case .control(let command): try out.enumCase("control", ("command", command))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("call", ("call", "bundle"), Self.call(call:bundle:)),
        WireCase("work", "_0", Self.work(_:)),
        WireCase("control", "command", Self.control(command:)),
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
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .result(let id, let result): try out.enumCase("result", ("id", id), ("result", result))
        case .effect(let effect): try out.enumCase("effect", ("effect", effect))
        case .error(let id, let message): try out.enumCase("error", ("id", id), ("message", message))
        case .userAction(let action): try out.enumCase("userAction", ("action", action))
        case .reply(let id, let reply): try out.enumCase("reply", ("id", id), ("reply", reply))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("result", ("id", "result"), Self.result(id:result:)),
        WireCase("effect", "effect", Self.effect(effect:)),
        WireCase("error", ("id", "message"), Self.error(id:message:)),
        WireCase("userAction", "action", Self.userAction(action:)),
        WireCase("reply", ("id", "reply"), Self.reply(id:reply:)),
    ]
}
