#!/usr/bin/env python3
"""Latency of durable changes from many clients at once (BENCHMARKS.md, issue 18 item 7).

    scripts/durable-clients.py SOCKET [--clients 200] [--rounds 10]

Forks CLIENTS processes; each connects to the daemon at SOCKET, waits until all are connected, then sends ROUNDS
`setLowDataMode` events (a settings write the daemon syncs before it answers), each after the answer to the last,
and times each round trip. Prints p50, p99 and max in milliseconds. The daemon must let one user hold CLIENTS
connections (`--max-connections-per-user`)."""
import argparse, json, os, socket, struct, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "clients"))
from client import frame, read_message  # noqa: E402


def client(path, index, rounds, start_read, results_write):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
    except OSError as error:
        os.write(results_write, b"")
        sys.stderr.write(f"client {index}: {error}\n")
        os._exit(1)
    os.write(results_write, b"")
    os.read(start_read, 1)
    latencies = []
    for round in range(rounds):
        event = {"setLowDataMode": {"_0": (index + round) % 2 == 0}}
        began = time.perf_counter()
        sock.sendall(frame({"id": round + 1, "body": {"control": {"command": {"event": {"event": event}}}}}))
        answer = read_message(sock)
        latencies.append(time.perf_counter() - began)
        if answer is None or "error" in answer:
            sys.exit(f"client {index}: {answer}")
    os.write(results_write, (json.dumps(latencies) + "\n").encode())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("socket")
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    start_read, start_write = os.pipe()
    results_read, results_write = os.pipe()
    children = []
    for index in range(args.clients):
        pid = os.fork()
        if pid == 0:
            os.close(start_write)
            os.close(results_read)
            client(args.socket, index, args.rounds, start_read, results_write)
            os._exit(0)
        children.append(pid)
    os.close(start_read)
    os.close(results_write)
    time.sleep(1)  # every client connects (a benchmark, not a test: the connections are not counted)
    os.write(start_write, b"x" * args.clients)
    text = b""
    while True:
        chunk = os.read(results_read, 65536)
        if not chunk:
            break
        text += chunk
    failed = sum(1 for pid in children if os.waitpid(pid, 0)[1] != 0)
    latencies = sorted(x for line in text.decode().splitlines() if line for x in json.loads(line))
    if failed or not latencies:
        sys.exit(f"{failed} clients failed")
    pick = lambda q: latencies[min(len(latencies) - 1, int(len(latencies) * q))] * 1000
    print(f"{args.clients} clients x {args.rounds} durable changes: p50 {pick(0.5):.1f} ms, p99 {pick(0.99):.1f} ms, "
          f"max {latencies[-1] * 1000:.1f} ms ({len(latencies)} answers)")


if __name__ == "__main__":
    main()
