// Oracles independent of every engine: longest common subsequences and the fewest moves.

import DiffLabBatch
import DiffLabCore

/// The fewest moves a pairing allows: paired elements outside one longest increasing run.
/// Brute force (every subset) up to 9 pairs, plain patience sorting above: the length only, with
/// a binary search over every pile, independent of the derivation's run (found from both ends,
/// with a galloping search) that ``MoveStrategy/minimal`` moves around.
func fewestMoves(_ matching: Matching) -> Int {
    let paired = matching.newToOld.filter { $0 >= 0 }
    if paired.count <= 9 { return paired.count - bruteForceLongestIncreasing(paired) }
    return paired.count - patienceLongestIncreasing(paired)
}

/// Length of a longest strictly increasing subsequence, by patience sorting: each pile's end is
/// the smallest value that ends an increasing run of its length, the first pile whose end is at
/// least the value is found by binary search over all piles.
///
/// - Complexity: O(n log n).
package func patienceLongestIncreasing(_ values: [Int]) -> Int {
    var ends: [Int] = []
    for value in values {
        var lo = 0
        var hi = ends.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ends[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        if lo == ends.count { ends.append(value) } else { ends[lo] = value }
    }
    return ends.count
}

/// ``fewestMoves(_:)`` of the pairing `newToOld` gives (new → old index, −1 unpaired; old
/// indices distinct and within `0..<oldCount`).
func fewestMoves(newToOld: [Int], oldCount: Int) -> Int {
    var matching = Matching(oldCount: oldCount, newCount: newToOld.count)
    for (n, o) in newToOld.enumerated() where o >= 0 { matching.pair(old: o, new: n) }
    return fewestMoves(matching)
}

/// Length of a longest common subsequence, by the O(n·m) dynamic program: the oracle for myers.
package func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
    guard !a.isEmpty && !b.isEmpty else { return 0 }
    var previous = [Int](repeating: 0, count: b.count + 1)
    var current = previous
    for i in a.indices {
        for j in b.indices {
            current[j + 1] = a[i] == b[j] ? previous[j] + 1 : max(previous[j + 1], current[j])
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// Length of a longest common subsequence by the bit-parallel dynamic program (Allison and Dix;
/// Hyyrö): one bit per position of `b`, a row of the O(n·m) table per element of `a` in
/// O(m/64) word operations. An oracle independent of every engine, exact at any size.
///
/// - Complexity: O(n·m/64) time, O(distinct(b)·m/64) memory.
package func bitParallelLCSLength(_ a: [Int], _ b: [Int]) -> Int {
    guard !a.isEmpty && !b.isEmpty else { return 0 }
    let words = (b.count + 63) / 64
    var masks: [Int: [UInt64]] = [:]
    for (j, x) in b.enumerated() {
        masks[x, default: [UInt64](repeating: 0, count: words)][j / 64] |= 1 << UInt64(j % 64)
    }
    var row = [UInt64](repeating: .max, count: words)
    for x in a {
        guard let mask = masks[x] else { continue }
        // row = (row + (row & mask)) | (row & ~mask), the addition carried across words.
        var carry: UInt64 = 0
        for w in 0..<words {
            let u = row[w] & mask[w]
            let (sum1, o1) = row[w].addingReportingOverflow(u)
            let (sum2, o2) = sum1.addingReportingOverflow(carry)
            carry = (o1 || o2) ? 1 : 0
            row[w] = sum2 | (row[w] & ~mask[w])
        }
    }
    var ones = 0
    for w in 0..<words {
        let valid = w == words - 1 && b.count % 64 != 0 ? (UInt64(1) << UInt64(b.count % 64)) - 1 : UInt64.max
        ones += (row[w] & valid).nonzeroBitCount
    }
    return b.count - ones
}

/// Length of a longest strictly increasing subsequence, by trying every subset (tiny inputs only):
/// the oracle for minimal moves.
package func bruteForceLongestIncreasing(_ values: [Int]) -> Int {
    var best = 0
    for mask in 0..<(1 << values.count) {
        var last = Int.min
        var length = 0
        var increasing = true
        for i in values.indices where mask & (1 << i) != 0 {
            if values[i] <= last {
                increasing = false
                break
            }
            last = values[i]
            length += 1
        }
        if increasing { best = max(best, length) }
    }
    return best
}
