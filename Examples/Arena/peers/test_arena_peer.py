"""Checks of the arena's Python peers that DiffLab's fuzzer would not reach: run by
`Scripts/arena` (and so by Scripts/test's smoke run) before the arena, with the peers' own venv.

    python -m unittest discover -s Examples/Arena/peers
"""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arena_peer  # noqa: E402


def apply(old, new, result):
    """The new list's identifiers rebuilt from the old one and a flat result (no moves)."""
    deleted = set(result["deletes"])
    kept = [element for i, element in enumerate(old) if i not in deleted]
    inserted = set(result["inserts"])
    out, k = [], 0
    for j in range(len(new)):
        if j in inserted:
            out.append(new[j][0])
        else:
            out.append(kept[k][0])
            k += 1
    return out


class PeerTests(unittest.TestCase):
    def test_rapidfuzz_does_not_take_colliding_hashes_for_equal_identifiers(self):
        # hash(0) == hash(2**61 - 1) in CPython: RapidFuzz, which compares by hash(), paired them
        # before the identifiers were renumbered (found in review; this is its regression test).
        for name in ("rapidfuzz-indel", "rapidfuzz-lcs"):
            diff = arena_peer.PEERS[name][0]
            old, new = [[0, "a"], [1, "b"]], [[2**61 - 1, "a"], [1, "b"]]
            result = diff(old, new)
            self.assertEqual(result["deletes"], [0], name)
            self.assertEqual(result["inserts"], [0], name)

    def test_identifiers_of_different_json_types_stay_different(self):
        a, b = arena_peer.dense([1, "1", 1.5, [1]], [[1], "1", 1])
        self.assertEqual(a, [0, 1, 2, 3])
        self.assertEqual(b, [3, 1, 0])

    def test_every_library_peer_turns_old_into_new(self):
        rng = random.Random(7)
        checked = []
        for name, (diff, timed, *_rest) in arena_peer.PEERS.items():
            if name.startswith("git-"):  # git peers need git; the arena's fuzzing checks them
                continue
            if name == "dtl" and not os.path.exists(arena_peer.DTL.path()):  # Scripts/arena builds it first
                continue
            for _ in range(50):
                old = [[rng.choice([rng.randrange(12), "s%d" % rng.randrange(4)]), rng.randrange(3)] for _ in range(rng.randrange(15))]
                new = [[rng.choice([rng.randrange(12), "s%d" % rng.randrange(4)]), rng.randrange(3)] for _ in range(rng.randrange(15))]
                answer = diff(old, new)
                if not timed:  # self-timed: (result, seconds)
                    answer, seconds = answer
                    self.assertGreaterEqual(seconds, 0, name)
                self.assertEqual(apply(old, new, answer), [e[0] for e in new], name)
            checked.append(name)
        self.assertGreaterEqual(len(checked), 14, checked)

    def test_conversions_refuse_answers_that_do_not_cover_the_lists(self):
        with self.assertRaises(RuntimeError):
            arena_peer.fast_dmp_opcodes([("=", 2), ("-", 1)], 4, 2)
        with self.assertRaises(RuntimeError):
            arena_peer.imara_opcodes([("Change", 1, 1, 1, 2)], 3, 3)
        with self.assertRaises(RuntimeError):
            arena_peer.opcodes_from_hunks([(2, 1, 2, 0)], 3, 3, "libgit2")
        self.assertEqual(arena_peer.opcodes_from_hunks([(2, 1, 1, 0)], 3, 2, "libgit2")[-1], ("equal", 2, 3, 1, 2))
        with self.assertRaises(RuntimeError):
            arena_peer.opcodes_from_runs([("equal", 1), (None, 1)], 2, 2, "dtl_peer")
        self.assertEqual(arena_peer.opcodes_from_runs([("equal", 1), ("insert", 2), ("delete", 1)], 2, 3, "x"),
                         [("equal", 0, 1, 0, 1), ("insert", 1, 1, 1, 3), ("delete", 1, 2, 3, 3)])

    def test_the_quadratic_libraries_refuse_lists_past_their_limit(self):
        for name, limit in (("imara-myers", arena_peer.IMARA_LIMIT), ("similar-lcs", arena_peer.SIMILAR_LCS_LIMIT)):
            diff = arena_peer.PEERS[name][0]
            too_long = [[i, 0] for i in range(limit + 1)]
            with self.assertRaises(ValueError, msg=name):
                diff(too_long, [[0, 0]])

    def test_a_peers_hello_says_whether_its_library_is_native(self):
        self.assertFalse(arena_peer.hello_for("difflib")["about"]["native"])
        self.assertFalse(arena_peer.hello_for("diff-match-patch")["about"]["native"])
        for name in ("patiencediff", "similar-myers", "cydifflib", "fast-diff-match-patch"):
            self.assertTrue(arena_peer.hello_for(name)["about"]["native"], name)

    def test_runs_of_negative_length_are_refused(self):
        with self.assertRaises(RuntimeError):
            arena_peer.opcodes_from_runs([("equal", 5), ("delete", -2), ("insert", -2)], 3, 3, "dtl_peer")


if __name__ == "__main__":
    unittest.main()
