#!/usr/bin/env python3
"""The arena's peers: diff libraries from PyPI and Debian as DiffLab engines (difflab-engine/1).

    python3 arena_peer.py LIBRARY

LIBRARY is one of the names in PEERS below. Each peer diffs the two lists of identifiers with its
library, turns the library's own opcodes (or hunks) into a flat result with difflib-engine's
`result_from_opcodes` (equal blocks pair in order; a pair whose token changed is an update;
everything else is deleted and inserted; no moves), and reports as `seconds` the library's own
time, so the lab's speed figures compare algorithms, not JSON and pipes:

- Python libraries: the call's time by `time.perf_counter()`, the conversion included;
- git's xdiff: git's own trace2 clock from its start to its exit (reading the two line files,
  the diff, writing the hunks; not the process's creation, about a millisecond), plus writing
  the two files and reading the hunks here.

Every peer keeps the same honest promises as difflib-engine (see ../README.md): correct on
repeated identifiers, no moves (the pairing never crosses), and no reference (a moved element is
deleted and inserted, so not every identifier present in both lists is paired).

Scripts/arena installs the libraries (PyPI packages into a virtual environment, git from
Debian) and runs them; nothing of them is in this repository.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "difflib-engine"))
from difflib_engine import result_from_opcodes, serve  # noqa: E402

PROMISES = {"duplicates": True, "minimalMoves": True, "reference": "none"}


def ids(elements):
    return [element[0] for element in elements]


def difflib_opcodes(a, b):
    import difflib

    return difflib.SequenceMatcher(None, a, b).get_opcodes()


def patiencediff_opcodes(a, b):
    import patiencediff

    return patiencediff.PatienceSequenceMatcher(None, a, b).get_opcodes()


def dense(a, b):
    """Each distinct identifier as a small integer 0, 1, 2, ... (first seen, first numbered).
    RapidFuzz compares the elements of a list by their hash(), and CPython's hash of an integer is
    taken modulo 2**61 - 1, so 0 and 2**61 - 1 would be one element: small integers hash to
    themselves, so equal numbers are equal identifiers and nothing else is."""
    table = {}

    def number(identifier):
        return table.setdefault(json.dumps(identifier), len(table))

    return [number(x) for x in a], [number(x) for x in b]


def rapidfuzz_opcodes(metric):
    def opcodes(a, b):
        from rapidfuzz.distance import LCSseq, Indel

        found = (Indel if metric == "indel" else LCSseq).opcodes(*dense(a, b))
        return [(op.tag, op.src_start, op.src_end, op.dest_start, op.dest_end) for op in found]

    return opcodes


def as_characters(a, b):
    """Each distinct identifier as one character (diff-match-patch's own line-mode trick,
    diff_linesToChars, on identifiers): equal identifiers are equal characters."""
    table = {}

    def char(identifier):
        code = table.setdefault(json.dumps(identifier), len(table))
        code += 0x800 if code >= 0xD800 else 0  # skip the surrogates
        if code > 0x10FFFF:
            raise ValueError("more distinct identifiers than Unicode has characters")
        return chr(code)

    return "".join(map(char, a)), "".join(map(char, b))


def dmp_opcodes(a, b):
    from diff_match_patch import diff_match_patch

    matcher = diff_match_patch()
    # No deadline: with the default one second, what comes back depends on the machine's speed.
    matcher.Diff_Timeout = 0
    text_a, text_b = as_characters(a, b)
    i = j = 0
    opcodes = []
    for operation, text in matcher.diff_main(text_a, text_b, False):
        n = len(text)
        if operation == 0:
            opcodes.append(("equal", i, i + n, j, j + n))
            i, j = i + n, j + n
        elif operation < 0:
            opcodes.append(("delete", i, i + n, j, j))
            i += n
        else:
            opcodes.append(("insert", i, i, j, j + n))
            j += n
    return opcodes


def git_diff(algorithm):
    """git's xdiff through `git diff --no-index`, on one line per identifier."""

    def diff(old, new):
        table = {}
        lines = [[str(table.setdefault(json.dumps(identifier), len(table))) for identifier in ids(side)] for side in (old, new)]
        with tempfile.TemporaryDirectory(prefix="difflab-git-") as folder:
            paths = [os.path.join(folder, name) for name in ("a", "b", "trace")]
            for path, side in zip(paths, lines):
                with open(path, "w") as file:
                    file.write("".join(line + "\n" for line in side))
            environment = dict(os.environ, GIT_TRACE2_EVENT=paths[2], GIT_CONFIG_NOSYSTEM="1", HOME=folder)
            command = ["git", "diff", "--no-index", "--no-color", "--no-ext-diff", "-U0", "--diff-algorithm=" + algorithm, paths[0], paths[1]]
            ran = subprocess.run(command, capture_output=True, env=environment)
            if ran.returncode not in (0, 1):
                raise RuntimeError("git diff exited %d: %s" % (ran.returncode, ran.stderr[-300:]))
            clock = {}
            with open(paths[2]) as trace:
                for event in map(json.loads, trace):
                    if event.get("event") in ("start", "exit"):
                        clock[event["event"]] = event["t_abs"]
        parsing = time.perf_counter()
        opcodes = []
        i = j = 0
        for line in ran.stdout.decode().split("\n"):
            if not line.startswith("@@ "):
                continue
            minus, plus = line.split(" ")[1:3]
            (old_start, old_count), (new_start, new_count) = (
                (int(part.split(",")[0][1:]), int(part.split(",")[1]) if "," in part else 1) for part in (minus, plus))
            # With no lines, the start is the line before the hunk (1-based).
            old_start = old_start if old_count == 0 else old_start - 1
            new_start = new_start if new_count == 0 else new_start - 1
            opcodes.append(("equal", i, old_start, j, new_start))
            opcodes.append(("replace", old_start, old_start + old_count, new_start, new_start + new_count))
            i, j = old_start + old_count, new_start + new_count
        opcodes.append(("equal", i, len(old), j, len(new)))
        if opcodes[-1][2] - i != opcodes[-1][4] - j:
            raise RuntimeError("git's hunks do not cover the lists")
        result = result_from_opcodes(old, new, opcodes)
        # Writing the files and starting git is this adapter's work, not git's: git's own clock and
        # the conversion of its hunks are reported.
        return result, clock["exit"] - clock["start"] + (time.perf_counter() - parsing)

    return diff


def python_peer(opcodes):
    return lambda old, new: result_from_opcodes(old, new, opcodes(ids(old), ids(new)))


def version(distribution):
    from importlib.metadata import version as installed

    return installed(distribution)


def git_version():
    return subprocess.run(["git", "--version"], capture_output=True, text=True, check=True).stdout.split()[-1]


# name: (diff, timed by serve?, library, version, how it is applied)
PEERS = {
    "difflib": (python_peer(difflib_opcodes), True, "Python difflib", lambda: sys.version.split()[0],
                "SequenceMatcher(None, old, new).get_opcodes(), autojunk on (the default)"),
    "patiencediff": (python_peer(patiencediff_opcodes), True, "patiencediff (PyPI)", lambda: version("patiencediff"),
                     "PatienceSequenceMatcher(None, old, new).get_opcodes()"),
    "rapidfuzz-indel": (python_peer(rapidfuzz_opcodes("indel")), True, "RapidFuzz (PyPI)", lambda: version("rapidfuzz"),
                        "rapidfuzz.distance.Indel.opcodes(old, new), identifiers renumbered 0, 1, 2, ..."),
    "rapidfuzz-lcs": (python_peer(rapidfuzz_opcodes("lcs")), True, "RapidFuzz (PyPI)", lambda: version("rapidfuzz"),
                      "rapidfuzz.distance.LCSseq.opcodes(old, new), identifiers renumbered 0, 1, 2, ..."),
    "diff-match-patch": (python_peer(dmp_opcodes), True, "diff-match-patch (PyPI)", lambda: version("diff-match-patch"),
                         "diff_main on one character per identifier (its line mode), Diff_Timeout = 0"),
}
for _algorithm in ("myers", "minimal", "patience", "histogram"):
    PEERS["git-" + _algorithm] = (git_diff(_algorithm), False, "git's xdiff (Debian's git)", git_version,
                                  "git diff --no-index -U0 --diff-algorithm=%s on one line per identifier; "
                                  "seconds: git's trace2 clock, start to exit" % _algorithm)


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in PEERS:
        sys.exit("usage: arena_peer.py LIBRARY, one of: " + ", ".join(PEERS))
    name = sys.argv[1]
    diff, timed, library, library_version, applied = PEERS[name]
    hello = {"type": "hello", "protocol": "difflab-engine/1", "name": name, "promises": PROMISES, "batch": False}
    if os.environ.get("DIFFLAB_PEER_ABOUT") != "0":
        hello["about"] = {"library": library, "version": library_version(), "adapter": applied,
                          "promiseSources": ["Examples/Arena/README.md: the peers' promises"]}
    serve(hello, diff, timed=timed)


if __name__ == "__main__":
    main()
