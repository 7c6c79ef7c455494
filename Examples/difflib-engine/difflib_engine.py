#!/usr/bin/env python3
"""A DiffLab engine (protocol difflab-engine/1) around Python's difflib.SequenceMatcher.

Standard library only. Run it through DiffLab, e.g.
    difflab fuzz --engine-command 'python3 Examples/difflib-engine/difflib_engine.py'
With `--claim minimal-script` (or unique-identifiers, heckel) it declares a promise difflib does
not keep, under the name difflib-claims-<reference>, so the fuzzer can be seen to refute it.
See README.md beside this file and docs/engine-protocol.md.
"""
import difflib
import json
import sys
import time

PROTOCOL = "difflab-engine/1"

HELLO = {
    "type": "hello",
    "protocol": PROTOCOL,
    "name": "difflib",
    # Honest promises (see README.md): any list is a valid input, duplicates included; the pairing
    # never crosses (SequenceMatcher's matching blocks are in order), so reporting no moves is the
    # fewest its pairing allows; there is no reference, because a moved element is reported as a
    # delete and an insert and the script is not minimal (SequenceMatcher promises "reasonable",
    # not minimal, edit sequences, and autojunk discards popular elements on lists of 200 or more).
    "promises": {"duplicates": True, "minimalMoves": True, "reference": "none"},
    "batch": False,
}


def result_from_opcodes(old, new, opcodes):
    """The flat result of a matcher's opcodes (tag, i1, i2, j1, j2) over two element lists.

    `equal` blocks pair element by element, and a pair whose tokens differ is an update; every
    other block's old indices are deletes and its new indices inserts. No moves: the blocks are in
    order in both lists, so the pairing never crosses.
    """
    inserts, deletes, updates = [], [], []
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2)):
                if old[i][1] != new[j][1]:
                    updates.append([i, j])
        else:  # replace, delete, insert
            deletes.extend(range(i1, i2))
            inserts.extend(range(j1, j2))
    return {"inserts": inserts, "deletes": deletes, "updates": updates, "moves": []}


def diff(old, new):
    """The flat result for two lists of [identifier, token] pairs."""
    old_ids = [element[0] for element in old]
    new_ids = [element[0] for element in new]
    return result_from_opcodes(old, new, difflib.SequenceMatcher(None, old_ids, new_ids).get_opcodes())


def serve(hello, diff, timed=True):
    """Answers the lab on standard input and output until it closes: `hello`, then `diff(old,
    new)` for each request. With `timed`, `seconds` is the call's time (time.perf_counter());
    otherwise `diff` returns (result, seconds), timed by itself. An exception is answered as an
    error, never as a result."""
    sys.stdin.reconfigure(encoding="utf-8")
    out = sys.stdout
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            if message.get("protocol") != PROTOCOL:
                sys.exit("%s: the lab speaks %r, not %s" % (hello["name"], message.get("protocol"), PROTOCOL))
            answer = hello
        else:
            started = time.perf_counter()
            try:
                if timed:
                    answer = diff(message["old"], message["new"])
                    seconds = time.perf_counter() - started
                else:
                    answer, seconds = diff(message["old"], message["new"])
                answer.update(type="result", id=message["id"], seconds=seconds)
            except Exception as error:  # answered as an error, never as a wrong result
                answer = {"type": "error", "id": message["id"], "message": repr(error)}
        out.write(json.dumps(answer, separators=(",", ":")) + "\n")
        out.flush()


def main():
    # `--claim REFERENCE` declares a stronger reference than difflib keeps (unique-identifiers,
    # minimal-script or heckel), to watch DiffLab's fuzzer refute it; the default is the honest one.
    if len(sys.argv) == 3 and sys.argv[1] == "--claim":
        HELLO["promises"]["reference"] = sys.argv[2]
        HELLO["name"] = "difflib-claims-" + sys.argv[2]
    elif len(sys.argv) != 1:
        sys.exit("usage: difflib_engine.py [--claim unique-identifiers|minimal-script|heckel]")
    serve(HELLO, diff)

if __name__ == "__main__":
    main()
