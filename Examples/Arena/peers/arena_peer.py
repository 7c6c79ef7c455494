#!/usr/bin/env python3
"""The arena's peers: diff libraries from PyPI and Debian as DiffLab engines (difflab-engine/1).

    python3 arena_peer.py LIBRARY

LIBRARY is one of the names in PEERS below. Each peer diffs the two lists of identifiers with its
library, turns the library's own opcodes (or hunks) into a flat result with difflib-engine's
`result_from_opcodes` (equal blocks pair in order; a pair whose token changed is an update;
everything else is deleted and inserted; no moves), and reports as `seconds` the library's own
time, so the lab's speed figures compare algorithms, not JSON and pipes:

- the first Python libraries (difflib, patiencediff, RapidFuzz, diff-match-patch): the call's
  time by `time.perf_counter()`, the numbering and the conversion included;
- git's xdiff: git's own trace2 clock from its start to its exit (reading the two line files,
  the diff, writing the hunks; not the process's creation, about a millisecond), plus writing
  the two files and reading the hunks here;
- the native libraries added for issue 46 (pygit2, similar, imarapy, cydifflib,
  fast-diff-match-patch, dtl): the library's call alone (`native_peer`; dtl by its C++ half's
  steady_clock, dtl_peer.cpp, which Scripts/arena compiles against Debian's libdtl-dev).

Every peer keeps the same honest promises as difflib-engine (see ../README.md): correct on
repeated identifiers, no moves (the pairing never crosses), and no reference (a moved element is
deleted and inserted, so not every identifier present in both lists is paired).

Scripts/arena installs the libraries (PyPI packages into a virtual environment, git and
libdtl-dev from Debian) and runs them; nothing of them is in this repository.
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


def opcodes_from_runs(runs, n, m, who):
    """Opcodes from a library's runs in list order, each ("equal" | "delete" | "insert", length):
    equal runs cover both lists, delete runs the old one, insert runs the new one. Raises when the
    runs do not cover the n old and m new items exactly (or name another kind)."""
    opcodes, i, j = [], 0, 0
    for kind, length in runs:
        if length < 0:
            raise RuntimeError("%s answered a run of length %d" % (who, length))
        if kind == "equal":
            opcodes.append(("equal", i, i + length, j, j + length))
            i, j = i + length, j + length
        elif kind == "delete":
            opcodes.append(("delete", i, i + length, j, j))
            i += length
        elif kind == "insert":
            opcodes.append(("insert", i, i, j, j + length))
            j += length
        else:
            raise RuntimeError("%s answered a run of kind %r" % (who, kind))
    if (i, j) != (n, m):
        raise RuntimeError("%s's runs cover %d and %d items, not %d and %d" % (who, i, j, n, m))
    return opcodes


def dmp_opcodes(a, b):
    from diff_match_patch import diff_match_patch

    matcher = diff_match_patch()
    # No deadline: with the default one second, what comes back depends on the machine's speed.
    matcher.Diff_Timeout = 0
    text_a, text_b = as_characters(a, b)
    kinds = {0: "equal", -1: "delete", 1: "insert"}
    runs = [(kinds.get(operation, operation), len(text)) for operation, text in matcher.diff_main(text_a, text_b, False)]
    return opcodes_from_runs(runs, len(a), len(b), "diff-match-patch")


def opcodes_from_hunks(hunks, n, m, who):
    """Opcodes from xdiff's hunks (git's `@@ -a,b +c,d @@`, libgit2's DiffHunk): each hunk is
    (old_start, old_count, new_start, new_count), 1-based, where a start with no lines is the line
    before the hunk; between the hunks the lists are equal."""
    opcodes = []
    i = j = 0
    for old_start, old_count, new_start, new_count in hunks:
        old_start = old_start if old_count == 0 else old_start - 1
        new_start = new_start if new_count == 0 else new_start - 1
        opcodes.append(("equal", i, old_start, j, new_start))
        opcodes.append(("replace", old_start, old_start + old_count, new_start, new_start + new_count))
        i, j = old_start + old_count, new_start + new_count
    opcodes.append(("equal", i, n, j, m))
    if any(tag == "equal" and i2 - i1 != j2 - j1 for tag, i1, i2, j1, j2 in opcodes):
        raise RuntimeError("%s's hunks do not cover the lists" % who)
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
        hunks = []
        for line in ran.stdout.decode().split("\n"):
            if not line.startswith("@@ "):
                continue
            minus, plus = line.split(" ")[1:3]
            hunks.append(tuple(
                number for part in (minus, plus)
                for number in (int(part.split(",")[0][1:]), int(part.split(",")[1]) if "," in part else 1)))
        result = result_from_opcodes(old, new, opcodes_from_hunks(hunks, len(old), len(new), "git"))
        # Writing the files and starting git is this adapter's work, not git's: git's own clock and
        # the conversion of its hunks are reported.
        return result, clock["exit"] - clock["start"] + (time.perf_counter() - parsing)

    return diff


# The native libraries (issue 46): each is timed around the library's own call only, with
# time.perf_counter(): numbering the identifiers and building the library's input before it, and
# turning its answer into DiffLab's result after it, are this adapter's work, not the library's.


def native_peer(prepare, call, convert):
    """A peer whose `seconds` is `call`'s time alone: prepare(ids_old, ids_new) builds the
    library's input, call(input) is the library's call (its answer read into Python values), and
    convert(answer, n, m) gives opcodes."""

    def diff(old, new):
        prepared = prepare(ids(old), ids(new))
        started = time.perf_counter()
        answer = call(prepared)
        seconds = time.perf_counter() - started
        return result_from_opcodes(old, new, convert(answer, len(old), len(new))), seconds

    return diff


def numbered_text(a, b):
    """One line per identifier, each distinct identifier a number (libgit2's buffers)."""
    x, y = dense(a, b)
    return "".join("%d\n" % v for v in x), "".join("%d\n" % v for v in y)


def numbered_strings(a, b):
    """Each identifier as the string of its number (the `similar` crate compares strings)."""
    x, y = dense(a, b)
    return [str(v) for v in x], [str(v) for v in y]


def pygit2_call(flag_name):
    def call(texts):
        import pygit2

        flag = 0 if flag_name is None else getattr(pygit2.enums.DiffOption, flag_name)
        patch = pygit2.Patch.create_from(texts[0], texts[1], context_lines=0, interhunk_lines=0, flag=flag)
        return [(h.old_start, h.old_lines, h.new_start, h.new_lines) for h in patch.hunks]

    return call


def similar_call(algorithm):
    def call(strings):
        from similar._similar import opcodes_seq

        return opcodes_seq(strings[0], strings[1], algorithm)

    return call


# imara-diff's Python binding interns the elements by __eq__ on its side, which grows with the
# square of the list (measured here: 1.7 s at 8,000 strings, 5.1 s at 16,000, against 6 ms for
# `similar`'s Myers at 10,000): lists longer than this are answered with an error, so the bench
# skips the cell and says why instead of waiting out the lab's 10 s limit per call.
IMARA_LIMIT = 10_000
# similar's LCS fills an n × m table: 0.7 s at 10,000 items, 10^10 cells at 100,000.
SIMILAR_LCS_LIMIT = 10_000


def limited(limit, why, prepare):
    def checked(a, b):
        if max(len(a), len(b)) > limit:
            raise ValueError("%d items is past this adapter's limit of %d for %s" % (max(len(a), len(b)), limit, why))
        return prepare(a, b)

    return checked


def imara_call(algorithm):
    def call(strings):
        import imarapy

        return [(d.type, d.source.position, len(d.source.lines), d.target.position, len(d.target.lines))
                for d in imarapy.diff(strings[0], strings[1], algorithm=algorithm)]

    return call


def imara_opcodes(deltas, n, m):
    """imara-diff's deltas (type, old position, old count, new position, new count), 0-based and
    in order, as opcodes with the equal runs between them."""
    opcodes, i, j = [], 0, 0
    for _kind, old_start, old_count, new_start, new_count in deltas:
        opcodes.append(("equal", i, old_start, j, new_start))
        opcodes.append(("replace", old_start, old_start + old_count, new_start, new_start + new_count))
        i, j = old_start + old_count, new_start + new_count
    opcodes.append(("equal", i, n, j, m))
    if any(tag == "equal" and i2 - i1 != j2 - j1 for tag, i1, i2, j1, j2 in opcodes):
        raise RuntimeError("imara-diff's deltas do not cover the lists")
    return opcodes


def cydifflib_call(lists):
    import cydifflib

    return cydifflib.SequenceMatcher(None, lists[0], lists[1]).get_opcodes()


def fast_dmp_call(texts):
    import fast_diff_match_patch

    return fast_diff_match_patch.diff(texts[0], texts[1], timelimit=0, checklines=False, cleanup="No")


def fast_dmp_opcodes(changes, n, m):
    """fast_diff_match_patch's (op, length) runs: '=' both lists, '-' the old one, '+' the new one."""
    kinds = {"=": "equal", "-": "delete", "+": "insert"}
    return opcodes_from_runs([(kinds.get(op, op), length) for op, length in changes], n, m, "fast_diff_match_patch")


class DTL:
    """Debian's libdtl-dev through the C++ half, dtl_peer.cpp, which Scripts/arena builds into
    .build/arena-peers/dtl_peer (or $DIFFLAB_DTL_PEER): started once, fed numbered lists, timed by
    itself (std::chrono::steady_clock around dtl's compose() and its edit script)."""

    process = None

    @classmethod
    def path(cls):
        here = os.path.dirname(os.path.abspath(__file__))
        return os.environ.get("DIFFLAB_DTL_PEER") or os.path.join(here, "..", "..", "..", ".build", "arena-peers", "dtl_peer")

    @classmethod
    def diff(cls, old, new):
        a, b = dense(ids(old), ids(new))
        if cls.process is None or cls.process.poll() is not None:
            cls.process = subprocess.Popen([cls.path()], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        request = "%d %d\n%s\n%s\n" % (len(a), len(b), " ".join(map(str, a)), " ".join(map(str, b)))
        cls.process.stdin.write(request)
        cls.process.stdin.flush()
        answer = cls.process.stdout.readline().split()
        if len(answer) < 2 or int(answer[1]) != len(answer) - 2:
            raise RuntimeError("dtl_peer answered %r (exit status %r)" % (" ".join(answer)[:200], cls.process.poll()))
        kinds = {"C": "equal", "D": "delete", "A": "insert"}
        runs = [(kinds.get(run[0], run[0]), int(run[1:])) for run in answer[2:]]
        return result_from_opcodes(old, new, opcodes_from_runs(runs, len(a), len(b), "dtl_peer")), int(answer[0]) / 1e9


def debian_version(package):
    ran = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package], capture_output=True, text=True)
    return (ran.stdout.strip() or "unknown") + " (Debian's %s)" % package


def hunks_to_opcodes(who):
    return lambda hunks, n, m: opcodes_from_hunks(hunks, n, m, who)


def pass_opcodes(opcodes, n, m):
    return opcodes


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
for _algorithm, _flag in (("myers", None), ("minimal", "MINIMAL"), ("patience", "PATIENCE")):
    PEERS["pygit2-" + _algorithm] = (
        native_peer(numbered_text, pygit2_call(_flag), hunks_to_opcodes("libgit2")), False, "libgit2's xdiff (pygit2, PyPI)",
        lambda: "pygit2 %s, libgit2 %s" % (version("pygit2"), __import__("pygit2").LIBGIT2_VERSION),
        "Patch.create_from(old, new, context_lines=0, flag=%s) on one line per identifier, its hunks read; "
        "seconds: that call alone" % ("DiffOption." + _flag if _flag else "0"))
for _algorithm in ("myers", "patience", "lcs"):
    _prepare = numbered_strings if _algorithm != "lcs" else limited(SIMILAR_LCS_LIMIT, "similar's n × m LCS table", numbered_strings)
    PEERS["similar-" + _algorithm] = (
        native_peer(_prepare, similar_call(_algorithm), pass_opcodes), False, "similar, the Rust crate (similar-rs, PyPI)",
        lambda: version("similar-rs"),
        "similar._similar.opcodes_seq(old, new, %r) on one string per identifier; seconds: that call alone" % _algorithm)
for _algorithm in ("histogram", "myers"):
    PEERS["imara-" + _algorithm] = (
        native_peer(limited(IMARA_LIMIT, "imarapy's quadratic interning", numbered_strings), imara_call(_algorithm), imara_opcodes),
        False, "imara-diff, the Rust crate (imarapy, PyPI)", lambda: version("imarapy"),
        "imarapy.diff(old, new, algorithm=%r) on one string per identifier, lists of at most %d items; "
        "seconds: that call alone" % (_algorithm, IMARA_LIMIT))
PEERS["cydifflib"] = (
    native_peer(lambda a, b: dense(a, b), cydifflib_call, pass_opcodes), False, "cydifflib (PyPI, difflib in Cython)",
    lambda: version("cydifflib"),
    "cydifflib.SequenceMatcher(None, old, new).get_opcodes(), autojunk on; seconds: that call alone")
PEERS["fast-diff-match-patch"] = (
    native_peer(as_characters, fast_dmp_call, fast_dmp_opcodes), False, "diff-match-patch's C++ port (fast-diff-match-patch, PyPI)",
    lambda: version("fast-diff-match-patch"),
    "fast_diff_match_patch.diff(old, new, timelimit=0, checklines=False, cleanup='No') on one character per identifier; "
    "seconds: that call alone")
PEERS["dtl"] = (
    DTL.diff, False, "dtl (Debian's libdtl-dev)", lambda: debian_version("libdtl-dev"),
    "dtl::Diff<long long>(old, new).compose() in Examples/Arena/peers/dtl_peer.cpp, built from the Debian header, on the "
    "identifiers numbered 0, 1, 2, ...; seconds: compose() and reading its edit script, by steady_clock")

# Whether a peer's diff runs as compiled code (C, C++, Rust, Cython) rather than in the Python
# interpreter: the arena report's "fastest native library" table reads it from `about`.
INTERPRETED = {"difflib", "diff-match-patch"}


def hello_for(name):
    """The hello peer `name` answers with, `about` included."""
    _diff, _timed, library, library_version, applied = PEERS[name]
    return {"type": "hello", "protocol": "difflab-engine/1", "name": name, "promises": PROMISES, "batch": False,
            "about": {"library": library, "version": library_version(), "adapter": applied, "native": name not in INTERPRETED,
                      "promiseSources": ["Examples/Arena/README.md: the peers' promises"]}}


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in PEERS:
        sys.exit("usage: arena_peer.py LIBRARY, one of: " + ", ".join(PEERS))
    name = sys.argv[1]
    diff, timed = PEERS[name][:2]
    hello = hello_for(name)
    if os.environ.get("DIFFLAB_PEER_ABOUT") == "0":
        del hello["about"]
    serve(hello, diff, timed=timed)


if __name__ == "__main__":
    main()
