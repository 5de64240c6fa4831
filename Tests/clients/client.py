#!/usr/bin/env python3
"""A tiny Offstage client in Python: proof that another language can speak the daemon's protocol
(docs/protocol.md). As a control client:  client.py SOCKET COMMAND [ARG] [--uid N]
  status | open BUNDLE | call-as-stranger BUNDLE | garbage | oversized | truncated | version2
prints each reply as one JSON line. Launched by the daemon as an app (OFFSTAGE_SOCKET set, no arguments),
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


def connect_again(path, seconds=10.0):
    """After the connection closed: connect to the same path again, every 10 ms at first and at most every
    200 ms, for `seconds`; None if no daemon answered in that time (then the app exits)."""
    delay, deadline = 0.01, time.monotonic() + seconds
    while time.monotonic() < deadline:
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
    elif command == "open":
        sock.sendall(frame({"id": 1, "body": control({"event": {"event": {"open": {"_0": arg}}}})}))
    elif command == "call-as-stranger":
        call = {"submit": {"_0": refresh_request(arg + ".refresh")}}
        sock.sendall(frame({"id": 1, "body": {"call": {"call": call, "bundle": arg}}}))
    elif command == "garbage":
        sock.sendall(struct.pack(">I", 9) + b"not json!")
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


def main():
    args = sys.argv[1:]
    if "--uid" in args:
        index = args.index("--uid")
        os.setuid(int(args[index + 1]))
        del args[index : index + 2]
    if not args and "OFFSTAGE_SOCKET" in os.environ:
        return run_app(os.environ["OFFSTAGE_SOCKET"])
    run_control(args[0], args[1], args[2] if len(args) > 2 else None)


if __name__ == "__main__":
    main()
