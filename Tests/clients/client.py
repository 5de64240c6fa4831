#!/usr/bin/env python3
"""A tiny Offstage client in Python: proof that another language can speak the daemon's protocol
(docs/protocol.md). As a control client:  client.py SOCKET COMMAND [ARG] [--uid N]
  status | why | open BUNDLE | call-as-stranger BUNDLE | garbage | bad-with-id | oversized | truncated | version2 | extremes BUNDLE
prints each reply as one JSON line. Launched by the daemon with the behaviour `extremes` or `torture` in its
Info.plist's OffstageTestBehaviours, it sends extreme numbers, or submits and cancels without end. Launched by the daemon as an app (OFFSTAGE_SOCKET set, no arguments),
it asks for its state, tries to submit for another bundle, and answers its life-cycle callbacks;
it writes what happened to $OFFSTAGE_TEST_DIR/<bundle>.events. When the daemon goes away it connects again
and sends again the calls that got no answer (docs/protocol.md, "When the daemon goes away")."""
import json, os, socket, struct, sys, time

VERSION = 1
MAX = 64 * 1024


def frame(payload):
    body = json.dumps({"version": VERSION, "payload": payload}).encode()
    return struct.pack(">I", len(body)) + body


def read_message(sock):
    header = read_exactly(sock, 4)
    if header is None:
        return None
    (length,) = struct.unpack(">I", header)
    if length > MAX:
        raise ValueError("oversized frame from the daemon")
    body = read_exactly(sock, length)
    return None if body is None else json.loads(body)["payload"]


def read_exactly(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def connect(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    return sock


def connect_again(path):
    """After the connection closed: connect to the same path again, every 10 ms at first and at most every
    200 ms, until a daemon answers; None (then the app exits) once the test that started the app has ended (its
    folder, $OFFSTAGE_TEST_DIR, is gone), or after 10 s outside a test. A test restarts its daemon when it is
    ready, however long a loaded machine makes that: a deadline here failed such tests."""
    test_folder = os.environ.get("OFFSTAGE_TEST_DIR")
    delay, deadline = 0.01, time.monotonic() + 10.0
    while os.path.isdir(test_folder) if test_folder else time.monotonic() < deadline:
        try:
            return connect(path)
        except OSError:
            time.sleep(delay)
            delay = min(delay * 2, 0.2)
    return None


def control(command):
    return {"control": {"command": command}}


def refresh_request(identifier):
    return {"identifier": identifier, "kind": "app refresh", "requiresNetworkConnectivity": False,
            "requiresExternalPower": False, "title": "", "subtitle": "", "strategy": "queue", "requiresGPU": False}


def run_control(path, command, arg):
    sock = connect(path)
    if command == "status":
        sock.sendall(frame({"id": 1, "body": control({"status": {}})}))
    elif command == "why":
        sock.sendall(frame({"id": 1, "body": control({"why": {"limit": 20}})}))
    elif command == "open":
        sock.sendall(frame({"id": 1, "body": control({"event": {"event": {"open": {"_0": arg}}}})}))
    elif command == "call-as-stranger":
        call = {"submit": {"_0": refresh_request(arg + ".refresh")}}
        sock.sendall(frame({"id": 1, "body": {"call": {"call": call, "bundle": arg}}}))
    elif command == "garbage":
        sock.sendall(struct.pack(">I", 9) + b"not json!")
    elif command == "bad-with-id":
        sock.sendall(frame({"id": 7, "body": {"call": {"call": {"endBackgroundTask": {"_0": 2**64}}}}}))
    elif command == "version2":
        body = json.dumps({"version": 2, "payload": {}}).encode()
        sock.sendall(struct.pack(">I", len(body)) + body)
    elif command == "oversized":
        sock.sendall(struct.pack(">I", 0x7FFFFFFF) + b"{")
    elif command == "truncated":
        whole = frame({"id": 1, "body": control({"status": {}})})
        sock.sendall(whole[: len(whole) // 2])
        sock.shutdown(socket.SHUT_WR)
    else:
        sys.exit("unknown command " + command)
    print(json.dumps(read_message(sock)), flush=True)


def run_app(path):
    bundle = os.environ.get("OFFSTAGE_BUNDLE_ID", "unknown")
    out = open(os.path.join(os.environ.get("OFFSTAGE_TEST_DIR", "/tmp"), bundle + ".events"), "a")

    def note(line):
        out.write(line + "\n")
        out.flush()

    behaviours = bundle_behaviours()
    if "extremes" in behaviours:
        return run_extremes(path, bundle, note)
    if "torture" in behaviours:
        return run_torture(path, bundle, note)
    if "stall-launch" in behaviours:
        # Connects and never answers its launch's callbacks: the daemon is killed while it launches this app.
        note("stalling pid %d" % os.getpid())
        link = AppLink(path, note)
        while True:
            time.sleep(1)
    sock = connect(path)
    unanswered = {}  # id -> body of each call without an answer: sent again, same id, on a new connection

    def send(call_id, body):
        try:
            sock.sendall(frame({"id": call_id, "body": body}))
        except OSError:
            pass  # the daemon went away: the next read notices, and the call is sent again

    def call(call_id, body):
        unanswered[call_id] = body
        send(call_id, body)

    call(1, {"call": {"call": {"applicationState": {}}, "bundle": None}})
    call(2, {"call": {"call": {"submit": {"_0": refresh_request("other.app.refresh")}}, "bundle": "other.app"}})
    next_id = 3
    while True:
        try:
            message = read_message(sock)
        except OSError:
            message = None
        if message is None:
            sock.close()
            sock = connect_again(path)
            if sock is None:
                note("no daemon")
                return
            note("reconnected")
            for call_id in sorted(unanswered):
                send(call_id, unanswered[call_id])
            continue
        if "result" in message:
            unanswered.pop(message["result"]["id"], None)
            note("result %d %s" % (message["result"]["id"], json.dumps(message["result"]["result"])))
        elif "error" in message:
            unanswered.pop(message["error"].get("id"), None)
            note("error %s %s" % (message["error"].get("id"), message["error"]["message"]))
        elif "effect" in message and "deliver" in message["effect"]["effect"]:
            deliver = message["effect"]["effect"]["deliver"]
            note("callback " + deliver["_1"])
            call(next_id, {"call": {"call": {"returned": {"token": deliver["token"]}}}})
            next_id += 1


def bundle_behaviours():
    """The test behaviours in the Info.plist of the bundle this script was started from (OffstageTestBehaviours)."""
    import plistlib
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), "Info.plist"), "rb") as f:
            return plistlib.load(f).get("OffstageTestBehaviours", [])
    except OSError:
        return []


class AppLink:
    """An app's connection that answers life-cycle callbacks while it waits for the answer to its own call,
    and connects again (sending the unanswered call again, same id) when the daemon goes away."""

    def __init__(self, path, note):
        self.path, self.note = path, note
        self.sock = connect(path)
        self.returns = 1_000_000  # ids of the `returned` calls that answer callbacks

    def call(self, call_id, body, wait=True):
        self.send(call_id, body)
        while wait:
            try:
                message = read_message(self.sock)
            except (OSError, ValueError):
                message = None
            if message is None:
                self.note("disconnected")
                self.sock.close()
                self.sock = connect_again(self.path)
                if self.sock is None:
                    self.note("no daemon")
                    sys.exit(0)
                self.note("reconnected")
                self.send(call_id, body)
                continue
            if "effect" in message and "deliver" in message["effect"]["effect"]:
                deliver = message["effect"]["effect"]["deliver"]
                self.returns += 1
                self.send(self.returns, {"call": {"call": {"returned": {"token": deliver["token"]}}}})
            for kind in ("result", "error"):
                if kind in message and message[kind].get("id") in (call_id, None):
                    return kind, message[kind]

    def send(self, call_id, body):
        try:
            self.sock.sendall(frame({"id": call_id, "body": body}))
        except OSError:
            pass  # the daemon went away: the next read notices


def app_call(call):
    return {"call": {"call": call}}


# Numbers at and past every edge: zero, negatives, the largest exact double, Int64's bounds and past them, the
# values that overflowed the daemon's arithmetic (9.3e17 s, 2^63 s), the largest and smallest doubles, NaN and
# infinities (which JSON cannot carry: the daemon must call the frame malformed).
EXTREMES = [0, -1, 1, 2**53, 2**63 - 1, -(2**63), 2**63, 2**64, 9.3e17, 9.3e18, 1e19, 1e308, -1e308, 5e-324,
            float("nan"), float("inf"), float("-inf")]


def extreme_calls(bundle):
    """Every app call and work report that carries a number, with each number replaced by each extreme."""
    refresh = bundle + ".refresh"
    for x in EXTREMES:
        yield app_call({"submit": {"_0": dict(refresh_request(refresh), earliestBeginDate=x)}})
        yield app_call({"setMinimumBackgroundFetchInterval": {"_0": x}})
        yield app_call({"endBackgroundTask": {"_0": x}})
        yield app_call({"setTaskCompleted": {"taskID": x, "success": True}})
        yield app_call({"updateTitle": {"taskID": x, "title": "t", "subtitle": "s"}})
        yield app_call({"reportProgress": {"taskID": x, "completed": x, "total": x}})
        yield app_call({"returned": {"token": x}})
        yield app_call({"backgroundEventCompleted": {"token": x, "result": 0}})
        yield {"work": {"_0": {"cpuSeconds": x, "gpuSeconds": x, "bytes": x, "seconds": 1}}}
        yield {"work": {"_0": {"cpuSeconds": 1, "gpuSeconds": 1, "bytes": x, "seconds": x}}}
    # Byte counts that overflow only when summed, and names past their limits.
    for _ in range(3):
        yield {"work": {"_0": {"cpuSeconds": 0, "gpuSeconds": 0, "bytes": 2**62, "seconds": 1}}}
    yield app_call({"beginBackgroundTask": {"name": "n" * 1000}})
    yield app_call({"submit": {"_0": dict(refresh_request("x" * 10_000), earliestBeginDate=1e9)}})
    yield {"call": {"call": {"applicationState": {}}, "bundle": ".."}}
    for i in range(300):  # long names, each at the limit: the decision log's answer must still fit in a frame
        yield app_call({"beginBackgroundTask": {"name": "n" * 250 + "%03d" % i}})


def run_extremes(path, bundle, note):
    """Sends every extreme call, one at a time, and notes each answer; a work report (no answer) is followed by
    an `applicationState` call, whose answer shows the daemon still serves."""
    link = AppLink(path, note)
    link.call(10**9, app_call({"register": {"identifier": bundle + ".refresh"}}))
    sent = 0
    for call_id, body in enumerate(extreme_calls(bundle), start=1):
        if "work" in body:
            link.call(call_id, body, wait=False)
            body = app_call({"applicationState": {}})
        kind, answer = link.call(call_id, body)
        sent += 1
        note("answer %d %s %s" % (call_id, kind, json.dumps(answer)[:300]))
    note("extremes done %d" % sent)
    while True:
        link.call(10**9, app_call({"applicationState": {}}))
        time.sleep(0.5)


def run_torture(path, bundle, note):
    """Submits and cancels two requests without end, one call at a time, noting each call before it is sent and
    each acknowledgement (the test kills the daemon meanwhile and compares the store with what was acknowledged)."""
    link = AppLink(path, note)
    identifiers = [bundle + ".refresh", bundle + ".processing"]
    for call_id, identifier in enumerate(identifiers, start=1):
        link.call(call_id, app_call({"register": {"identifier": identifier}}))
    call_id = 10
    while True:
        call_id += 1
        identifier = identifiers[call_id % 2]
        if call_id % 3 == 0:
            body, op = app_call({"cancel": {"identifier": identifier}}), "cancel %s" % identifier
        else:
            request = dict(refresh_request(identifier), earliestBeginDate=2e9 + call_id)
            if identifier.endswith(".processing"):
                request["kind"] = "processing"
            body, op = app_call({"submit": {"_0": request}}), "submit %s %d" % (identifier, 2e9 + call_id)
        note("sent %d %s" % (call_id, op))
        kind, answer = link.call(call_id, body)
        ok = kind == "result" and answer["result"] in ({"ok": {}}, "ok")
        note("%s %d" % ("ack" if ok else "refused", call_id))


def run_control_extremes(path, bundle):
    """Every control command and event that carries a number, with each extreme; prints one line per answer."""
    sock = connect(path)
    commands = []
    for x in EXTREMES:
        commands += [
            {"device": {"overrides": {"batteryLevel": x}, "reset": False}},
            {"device": {"overrides": {"memoryPressureBytes": x}, "reset": False}},
            {"why": {"bundle": bundle, "limit": x}},
            {"event": {"event": {"setBattery": {"level": x, "charging": False}}}},
            {"event": {"event": {"memoryPressure": {"bytes": x}}}},
            {"event": {"event": {"setMemoryFootprint": {"_0": bundle, "bytes": x}}}},
            {"event": {"event": {"setWallClock": {"_0": {"epochAtZero": x, "utcOffset": 0}}}}},
            {"event": {"event": {"resourceUsage": {"_0": bundle, "_1": {
                "cpuSeconds": x, "gpuSeconds": x, "wifiBytes": x, "cellularBytes": x, "interval": x}}}}},
        ]
    commands.append({"event": {"event": {"open": {"_0": "../.."}}}})
    for call_id, command in enumerate(commands, start=1):
        sock.sendall(frame({"id": call_id, "body": control(command)}))
        answer = read_message(sock)
        print("answer %d %s" % (call_id, json.dumps(answer)[:300]), flush=True)


def main():
    args = sys.argv[1:]
    if "--uid" in args:
        index = args.index("--uid")
        os.setuid(int(args[index + 1]))
        del args[index : index + 2]
    if not args and "OFFSTAGE_SOCKET" in os.environ:
        return run_app(os.environ["OFFSTAGE_SOCKET"])
    if args[1] == "extremes":
        return run_control_extremes(args[0], args[2])
    run_control(args[0], args[1], args[2] if len(args) > 2 else None)


if __name__ == "__main__":
    main()
