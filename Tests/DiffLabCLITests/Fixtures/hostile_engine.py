"""A difflab-engine/1 engine that misbehaves on purpose, for ProcessEngineTests.

Usage: hostile_engine.py MODE. It answers every request with "delete everything, insert
everything" (always a valid result), except that a request whose old list holds the identifier
666 triggers MODE's misbehaviour; crash-third and crash-start do not need the trigger.
"""
import json
import os
import signal
import sys
import time

mode = sys.argv[1]
TRIGGER = 666

if mode == "crash-start":
    sys.stderr.write("cannot start: no licence\n")
    sys.exit(3)
if mode == "ignore-term":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


hello = {
    "type": "hello",
    "protocol": "difflab-engine/1",
    "name": "hostile",
    "promises": {"duplicates": True, "minimalMoves": False, "reference": "none"},
    "batch": mode == "batch",
}
if mode == "bad-hello":
    hello["protocol"] = "difflab-engine/2"

requests = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        send(hello)
        if mode == "close-input":
            os.close(0)
            time.sleep(0.3)
            sys.exit(5)
        continue
    requests += 1
    lists = {
        "inserts": list(range(len(message["new"]))),
        "deletes": list(range(len(message["old"]))),
        "updates": [],
        "moves": [],
    }
    result = dict(lists, type="result", id=message["id"], seconds=0.0)
    if mode == "batch":
        result["batch"] = lists
    if mode == "crash-third" and requests == 3:
        sys.stderr.write("fatal: cannot take request %d\n" % message["id"])
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGTERM)
    if any(element[0] == TRIGGER for element in message["old"]):
        if mode in ("hang", "ignore-term"):
            time.sleep(1000)
        elif mode == "garbage":
            sys.stdout.write("Computing the diff...\n")
        elif mode == "huge":
            sys.stdout.write("x" * 100_000_000 + "\n")
        elif mode == "wrong-id":
            result["id"] += 1
        elif mode == "non-integer":
            result["deletes"] = [0.5]
        elif mode == "string-index":
            result["updates"] = [["0", 0]]
        elif mode == "exit-zero":
            sys.exit(0)
        elif mode == "stderr-flood":
            while True:
                sys.stderr.write("flood " * 1000 + "\n")
        elif mode == "stderr-chatty":
            sys.stderr.write("chatter\n" * 1_000_000)
        elif mode == "error":
            result = {"type": "error", "id": message["id"], "message": "cannot diff 666"}
        elif mode == "two-lines":
            send(result)
        elif mode == "slow-seconds":
            result["seconds"] = 1000.0
    send(result)

if mode == "ignore-term":
    time.sleep(1000)  # ignores the end of its input too
