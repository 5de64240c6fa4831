import Foundation
import Glibc
import Logging
import OffstageCore
import OffstageLinux
import OffstageProtocol

/// One client connection: who is at the other end (from the kernel), the bytes of its unfinished
/// frame, and the bytes waiting to be written.
final class Connection {
    let fd: Int32
    let pid: Int32
    let uid: UInt32
    let gid: UInt32
    /// The app whose process this is, if the daemon launched it; nil for `ctl` and other clients.
    var app: BundleID?
    var buffer = FrameBuffer()
    /// Frames not yet taken by the socket (usually none: a frame is written as soon as it is made).
    var outgoing: [UInt8] = []
    /// `outgoing.count` as last added to the user's `Daemon.unreadBytes` (clients only).
    var countedUnread = 0
    /// Close once `outgoing` is written (after a fatal protocol error).
    var closeAfterWrite = false
    /// The generation of the store's commit its answers wait for (with everything sent after them): set when a
    /// message's answer acknowledges something written (`Daemon.holdUntilSynced`); nothing is written to the
    /// client until that commit is on disk (`Daemon.syncedGeneration`). 0: none.
    var heldUntil: UInt64 = 0
    /// The app at the other end is frozen: what is written to it waits in `outgoing` until it is thawed
    /// (`Daemon.setFrozen`). Written at once, a SIGSTOP-frozen app could read it before it stopped.
    var frozen = false
    /// When the client last sent bytes, and since when an unfinished message waits (`sweepConnections`).
    var lastHeard: Instant
    var partialSince: Instant?
    /// Cleared by `disconnect`: the loops over one connection's messages check this, not the table of
    /// connections (a hashed lookup per message).
    var isOpen = true

    init(fd: Int32, peer: PeerCredentials, at now: Instant) {
        self.fd = fd
        lastHeard = now
        pid = peer.pid
        uid = peer.uid
        gid = peer.gid
    }
}

/// Reads of one connection per turn of the loop, at most (see `serviceConnection`).
let readsPerTurn = 64

/// Connections taken per turn of the loop, at most: the listen backlog's length (see `acceptConnections`).
let acceptsPerTurn = Int(ListeningSocket.backlog)

extension Daemon {
    /// Takes the waiting connections (at most `acceptsPerTurn`, so that one flood does not keep the loop from the
    /// others): an app's process is bound to its app; another client beyond the limits (overall, per user) is
    /// answered with an error and closed. Out of descriptors, it sheds what waits and pauses (`pauseAccepting`).
    func acceptConnections() {
        for _ in 0..<acceptsPerTurn {
            guard let fd = ListeningSocket.accept(listener) else {
                if errno == EMFILE || errno == ENFILE { pauseAccepting() }
                return
            }
            // After a flood the backlog holds connections whose clients have gone: closed at once, they cannot
            // fill the descriptors and have the live client queued behind them shed (`pauseAccepting`).
            guard !ListeningSocket.leftUnsaid(fd), let peer = ListeningSocket.peer(of: fd) else {
                close(fd)
                continue
            }
            let connection = Connection(fd: fd, peer: peer, at: clock.now())
            if let app = apps.first(where: { id, app in app.process.map { host.owns(id, $0, pid: peer.pid) } ?? false
            })?.key {
                let ofApp = appConnections[app, default: 0]
                guard ofApp < configuration.maxConnectionsPerApp else {
                    refuseConnection(
                        fd, peer, "too many connections of \(app) (at most \(configuration.maxConnectionsPerApp))")
                    continue
                }
                connections[fd] = connection
                appConnections[app] = ofApp + 1
                attach(connection, to: app)
                continue
            }
            let fromUser = clientConnections[peer.uid, default: 0]
            if clientConnections.values.reduce(0, +) >= configuration.maxConnections
                || fromUser >= configuration.maxConnectionsPerUser
            {
                refuseConnection(
                    fd, peer,
                    "too many connections (at most \(configuration.maxConnections), "
                        + "\(configuration.maxConnectionsPerUser) per user)")
                continue
            }
            connections[fd] = connection
            clientConnections[peer.uid] = fromUser + 1
            if sweepAt == nil { sweepAt = clock.now() + 1 }
        }
    }

    /// Answers a connection over a limit with `reason` and closes it; the log says so at most once per
    /// `repeatedLogInterval` (a client can provoke it at will).
    private func refuseConnection(_ fd: Int32, _ peer: PeerCredentials, _ reason: String) {
        if let held = refusalLog.admit(at: clock.now()) {
            logger.warning(
                "refusing a connection: too many",
                metadata: [
                    "uid": "\(peer.uid)", "pid": "\(peer.pid)", "reason": "\(reason)", "refusals not logged": "\(held)",
                ])
        }
        var refusal: [UInt8] = []
        try? Frame.append(ServerMessage.error(id: nil, message: reason), to: &refusal)
        _ = refusal.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(fd)
    }

    /// Out of file descriptors: takes (with the spare descriptor) and closes the connections waiting, so that
    /// their clients learn it at once, then leaves the listener out of `poll` for `descriptorShortagePause`.
    /// Without the pause the listener stays readable and the loop spins on `accept`; the log says it once per
    /// `repeatedLogInterval`, with the count of connections shed.
    func pauseAccepting() {
        let now = clock.now()
        close(spareDescriptor)
        var shed = 0
        while shed < acceptsPerTurn, let waiting = ListeningSocket.accept(listener) {
            close(waiting)
            shed += 1
        }
        spareDescriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        acceptingResumesAt = now + configuration.descriptorShortagePause
        shedConnections += shed
        guard let held = shortageLog.admit(at: now) else { return }
        logger.warning(
            "out of file descriptors: refusing connections",
            metadata: [
                "connections shed": "\(shedConnections)", "pauses not logged": "\(held)",
                "pause": "\(configuration.descriptorShortagePause) s",
            ])
        shedConnections = 0
    }

    /// Closes connections that left a message unfinished too long, and clients' connections silent too long;
    /// gives the memory back. Runs every second while clients' connections or unfinished messages exist.
    func sweepConnections(at now: Instant) {
        sweepAt = nil
        var closed = 0
        var watched = false
        for connection in Array(connections.values) {
            if let since = connection.partialSince, since + configuration.partialMessageTimeout <= now {
                logger.warning(
                    "closing a connection that left a message unfinished", metadata: ["pid": "\(connection.pid)"])
                send(
                    .error(id: nil, message: "message unfinished after \(configuration.partialMessageTimeout) s"),
                    to: connection)
                disconnect(connection)
                closed += 1
            } else if connection.app == nil, connection.lastHeard + configuration.idleTimeout <= now {
                logger.info("closing an idle connection", metadata: ["pid": "\(connection.pid)"])
                disconnect(connection)
                closed += 1
            } else if connection.app == nil || connection.partialSince != nil {
                watched = true
            }
        }
        if closed > 0 { HeapTrim.now() }
        if watched { sweepAt = now + 1 }
    }

    /// Binds a connection to the app whose process opened it, and sends what was waiting.
    func attach(_ connection: Connection, to app: BundleID) {
        connection.app = app
        logger.debug("app connected", metadata: ["app": "\(app)", "pid": "\(connection.pid)"])
        guard apps[app]?.connection == nil else { return }
        apps[app]!.connection = connection.fd
        connection.frozen = apps[app]!.frozen
        let waiting = apps[app]!.outbox
        apps[app]!.outbox = []
        for message in waiting { send(message, to: connection) }
    }

    /// Reads what arrived and answers every whole message; a bad frame gets an error reply. Reads again after
    /// answering, until the socket is empty: a client that waits for each answer sends its next call while this
    /// one is handled, and taking it now saves a `poll` per message (an answer is always sent before the next
    /// read, so a lone call waits for nothing). At most `readsPerTurn` reads, so other clients and due work get
    /// their turn.
    func serviceConnection(_ fd: Int32, readable: Bool) {
        guard let connection = connections[fd] else { return }
        flush(connection)
        guard readable else { return }
        for _ in 0..<readsPerTurn {
            guard connection.isOpen, !connection.closeAfterWrite else { return }
            let n = readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
            guard n > 0 else {
                if connection.buffer.hasPartialFrame {
                    logRefusal("connection ended inside a frame", ["pid": "\(connection.pid)"])
                    send(.error(id: nil, message: Frame.Failure.truncated.description), to: connection)
                    flush(connection)
                }
                return disconnect(connection)
            }
            readBuffer.withUnsafeBytes { connection.buffer.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            connection.lastHeard = clock.now()
            answerWholeMessages(connection)
            if connection.buffer.hasPartialFrame {
                if connection.partialSince == nil {
                    connection.partialSince = connection.lastHeard
                    if sweepAt == nil { sweepAt = connection.lastHeard + 1 }
                }
            } else {
                connection.partialSince = nil
            }
        }
    }

    /// Answers every whole message waiting in the connection's buffer.
    private func answerWholeMessages(_ connection: Connection) {
        while connection.isOpen, !connection.closeAfterWrite {
            switch connection.buffer.next(ClientMessage.self) {
            case .needMore: return
            case .message(let message):
                do { handle(try message.validated(), from: connection) } catch {
                    refuse(message, error, from: connection)
                }
            case .failure(let failure, let fatal):
                logRefusal("bad frame", ["pid": "\(connection.pid)", "error": "\(failure)"])
                send(.error(id: fatal ? nil : connection.buffer.failedID, message: failure.description), to: connection)
                if fatal {
                    connection.closeAfterWrite = true
                    flush(connection)
                }
            }
        }
    }

    /// Answers a message with a value out of range with an error naming the field (a work report, which gets no
    /// answer, only in the log), and serves on.
    private func refuse(_ message: ClientMessage, _ error: InputError, from connection: Connection) {
        logRefusal(
            "refused a value out of range",
            ["pid": "\(connection.pid)", "app": "\(connection.app?.rawValue ?? "-")", "error": "\(error)"])
        if case .work = message.body { return }
        send(.error(id: message.id, message: error.description), to: connection)
    }

    /// Logs a message refused (a bad frame, a value out of range, a claim to another bundle) at most once per
    /// `repeatedLogInterval`, with the count of refusals not logged: a client can send them as fast as it likes.
    func logRefusal(_ what: String, _ metadata: Logger.Metadata) {
        guard let held = refusedMessageLog.admit(at: clock.now()) else { return }
        logger.warning("\(what)", metadata: metadata.merging(["refusals not logged": "\(held)"]) { old, _ in old })
    }

    /// Queues a message for the client and writes as much as the socket takes.
    func send(_ message: ServerMessage, to connection: Connection) {
        do { try Frame.append(message, to: &connection.outgoing) } catch {
            let id: Int? =
                switch message {
                case .reply(let id, _), .result(let id, _): id
                default: nil
                }
            return send(.error(id: id, message: "the answer is too large: \(error)"), to: connection)
        }
        flush(connection)
    }

    /// Holds the connection's answers (the next one and any after it) until the store is synced, if something
    /// the daemon acknowledges was written: an answer means durable.
    func holdUntilSynced(_ connection: Connection) {
        guard store.awaitsSync else { return }
        if connection.heldUntil <= syncedGeneration { awaitingSync.append(connection) }
        connection.heldUntil = committedGeneration + 1
    }

    /// Group commit, at the end of each turn of the loop: commits the turn's transaction and, if it holds
    /// acknowledged changes, asks the sync thread to make them durable; the loop serves the next turn meanwhile,
    /// and one `fsync` covers every turn committed while the last one ran.
    func commitTurn() {
        do { try store.commit() } catch { logger.critical("acknowledging uncommitted changes: \(error)") }
        guard store.awaitsSync else { return }
        store.awaitsSync = false
        committedGeneration += 1
        syncer.request(committedGeneration)
    }

    /// A sync ended: sends the answers that waited for it. A failed one is logged and they are sent all the same
    /// (the changes are committed, and a client must not wait for ever).
    func synced(_ report: StoreSyncer.Report) {
        if case .failed(_, let reason) = report { logger.critical("acknowledging unsynced changes: \(reason)") }
        release(upTo: report.generation)
    }

    /// Ends the sync thread, commits and syncs here and now, and sends every held answer: at shutdown, and where no
    /// loop runs (a test driving the daemon by hand).
    func syncNow() {
        syncer.stop()
        do { try store.sync() } catch { logger.critical("acknowledging uncommitted or unsynced changes: \(error)") }
        // Held answers wait for at most the generation after the last one committed: this one.
        committedGeneration += 1
        release(upTo: committedGeneration)
    }

    /// Sends the answers held for a commit up to `generation`, now on disk.
    private func release(upTo generation: UInt64) {
        syncedGeneration = max(syncedGeneration, generation)
        guard !awaitingSync.isEmpty else { return }
        let held = awaitingSync
        awaitingSync.removeAll(keepingCapacity: true)
        for connection in held {
            guard connection.heldUntil <= syncedGeneration else {
                awaitingSync.append(connection)
                continue
            }
            connection.heldUntil = 0
            if connection.isOpen { flush(connection) }
        }
    }

    /// Writes queued bytes without blocking (none to a frozen app: they wait for its thaw); drops a connection
    /// that leaves more than `maxUnreadBytes` unread, or a client whose user's clients leave more than
    /// `maxUnreadBytesPerUser` (the one adding to it: a client that reads keeps nothing unread).
    func flush(_ connection: Connection) {
        guard connection.heldUntil <= syncedGeneration, !connection.frozen else { return }
        while !connection.outgoing.isEmpty {
            let n = connection.outgoing.withUnsafeBytes {
                Glibc.send(connection.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if n == connection.outgoing.count {
                connection.outgoing.removeAll(keepingCapacity: connection.outgoing.capacity <= 64 * 1024)
            } else if n > 0 {
                connection.outgoing.removeFirst(n)
            } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                break
            } else {
                return disconnect(connection)
            }
        }
        if connection.app == nil {
            unreadBytes[connection.uid, default: 0] += connection.outgoing.count - connection.countedUnread
            connection.countedUnread = connection.outgoing.count
        }
        if connection.outgoing.count > configuration.maxUnreadBytes
            || (connection.app == nil && !connection.outgoing.isEmpty
                && unreadBytes[connection.uid, default: 0] > configuration.maxUnreadBytesPerUser)
        {
            if let held = unreadLog.admit(at: clock.now()) {
                logger.warning(
                    "dropping a client that does not read",
                    metadata: [
                        "pid": "\(connection.pid)", "uid": "\(connection.uid)",
                        "unread bytes": "\(connection.outgoing.count)", "drops not logged": "\(held)",
                    ])
            }
            return disconnect(connection)
        }
        if connection.outgoing.isEmpty && connection.closeAfterWrite { disconnect(connection) }
    }

    func disconnect(_ connection: Connection) {
        guard connection.isOpen, connections.removeValue(forKey: connection.fd) != nil else { return }
        connection.isOpen = false
        if let app = connection.app, apps[app]?.connection == connection.fd { apps[app]!.connection = nil }
        if let app = connection.app {
            appConnections[app, default: 1] -= 1
        } else {
            clientConnections[connection.uid, default: 1] -= 1
            unreadBytes[connection.uid, default: 0] -= connection.countedUnread
        }
        close(connection.fd)
    }

    /// Sends to the app's process, or keeps the message until it connects.
    func send(_ message: ServerMessage, toApp app: BundleID) {
        guard apps[app]?.process != nil else { return }
        if let fd = apps[app]?.connection, let connection = connections[fd] {
            send(message, to: connection)
        } else {
            apps[app]?.outbox.append(message)
        }
    }

    // MARK: Requests

    /// Answers one request: app calls only from launched apps, for themselves; control commands
    /// that change things only from the owner (or the configured group), never from apps.
    func handle(_ message: ClientMessage, from connection: Connection) {
        switch message.body {
        // Work an app announces (`AppCall.workBegan`/`workEnded`) is answered here: the daemon's CPU monitor reads
        // the process's measured CPU time, not what the app says it will use.
        case .call(let call, let claimed):
            guard let app = connection.app else {
                return send(
                    .error(
                        id: message.id,
                        message:
                            "app calls come only from processes the daemon launched (pid \(connection.pid) is not one)"),
                    to: connection)
            }
            if let claimed, claimed != app {
                logRefusal("a client claimed another bundle", ["app": "\(app)", "claimed": "\(claimed)"])
                return send(
                    .error(id: message.id, message: "this connection belongs to \(app); it cannot act for \(claimed)"),
                    to: connection)
            }
            if case .workBegan = call { return send(.result(id: message.id, result: .ok), to: connection) }
            if case .workEnded = call { return send(.result(id: message.id, result: .ok), to: connection) }
            let (result, effects) = system.call(call, from: app, at: clock.now())
            let decidedAt = Self.freezerDecisionTime(effects) ?? 0
            // A call that ends the app's last work (the callback returned, the task ended) freezes it before
            // the answer is queued: it waits for the answer, so it stops at once; the answer is held while it is
            // frozen (`Connection.frozen`) and written when it is thawed. Answered first, it would be woken to
            // read the answer and then frozen while running.
            let freezesFirst = decidedAt != 0 && effects.contains(.suspend(app))
            if freezesFirst { carryOut(effects, decidedAt: decidedAt) }
            // Written before the answer, which waits for the sync: an acknowledged call is durable.
            afterChange(app: app)
            holdUntilSynced(connection)
            send(.result(id: message.id, result: result), to: connection)
            if !freezesFirst { carryOut(effects, decidedAt: decidedAt) }
        case .work(let report):
            guard let app = connection.app else {
                return send(
                    .error(id: message.id, message: "work reports come only from processes the daemon launched"),
                    to: connection)
            }
            // CPU time comes from the daemon's own samples, which also cover the time: no CPU, no interval.
            let usage = ResourceUsage(
                cpuSeconds: 0, gpuSeconds: max(0, report.gpuSeconds), bytes: max(0, report.bytes),
                on: system.device.network, interval: 0)
            carryOut(system.handle(.resourceUsage(app, usage), at: clock.now()))
        case .control(let command):
            if command.needsOwner, let refusal = refusal(for: connection) {
                return send(.error(id: message.id, message: refusal), to: connection)
            }
            let answer: ServerMessage
            do { answer = .reply(id: message.id, reply: try self.answer(command)) } catch {
                answer = .error(id: message.id, message: "\(error)")
            }
            afterChange(app: nil)
            holdUntilSynced(connection)
            send(answer, to: connection)
        }
    }

    /// Why this client may not change things, or nil if it may.
    func refusal(for connection: Connection) -> String? {
        if let app = connection.app { return "apps cannot use control commands (this is \(app))" }
        let owner = getuid()
        if connection.uid == owner || connection.uid == 0 { return nil }
        if let group = configuration.controlGroup,
            connection.gid == group || host.supplementaryGroups(of: connection.pid).contains(group)
        {
            return nil
        }
        return "permission denied: only the daemon's owner (uid \(owner))"
            + (configuration.controlGroup.map { " or group \($0)" } ?? "")
            + " may change apps or settings, or read the decision log"
    }

}
