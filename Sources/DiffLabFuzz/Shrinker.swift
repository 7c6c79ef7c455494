/// Shortlex order on choice sequences: shorter is simpler; among equal lengths, the
/// lexicographically smaller one is.
package func isSimpler(_ a: [UInt64], than b: [UInt64]) -> Bool {
    if a.count != b.count { return a.count < b.count }
    return a.lexicographicallyPrecedes(b)
}

/// Shrinks a failing choice sequence toward a shortlex-minimal one that still fails the same way.
///
/// `stillFails` decodes a candidate (replaying it, zeros after its end) and answers whether it
/// reproduces the failure — the same signature, so shrinking keeps the same bug. It returns the
/// choices actually consumed, which may be shorter than the candidate. Passes, repeated until none
/// helps:
/// 1. delete spans of 8, 4, 2 and 1 choices (removes list elements and mutations);
/// 2. zero spans of 8, 4, 2 and 1 choices;
/// 3. minimise each choice: try 0, then binary search for the smallest value that still fails,
///    then try one less.
///
/// - Parameters:
///   - choices: a failing sequence.
///   - budget: the most candidates to try.
///   - stillFails: the test; returns the consumed choices when the candidate fails the same way.
/// - Returns: the simplest failing sequence found and the number of candidates tried.
package func shrink(
    _ choices: [UInt64], budget: Int = 20_000, stillFails: ([UInt64]) -> [UInt64]?
) -> (choices: [UInt64], attempts: Int) {
    var best = choices
    var attempts = 0
    func attempt(_ candidate: [UInt64]) -> Bool {
        guard attempts < budget, isSimpler(candidate, than: best) else { return false }
        attempts += 1
        guard let consumed = stillFails(candidate) else { return false }
        let accepted = isSimpler(consumed, than: best) ? consumed : candidate
        guard isSimpler(accepted, than: best) else { return false }
        best = accepted
        return true
    }
    var improved = true
    while improved && attempts < budget {
        improved = false
        for size in [8, 4, 2, 1] {
            var start = best.count - size
            while start >= 0 {
                var candidate = best
                candidate.removeSubrange(start..<min(start + size, candidate.count))
                if attempt(candidate) { improved = true }
                start = min(start - 1, best.count - size)
            }
        }
        for size in [8, 4, 2, 1] {
            var start = 0
            while start + size <= best.count {
                if best[start..<start + size].contains(where: { $0 != 0 }) {
                    var candidate = best
                    for i in start..<start + size { candidate[i] = 0 }
                    if attempt(candidate) { improved = true }
                }
                start += size
            }
        }
        var i = 0
        while i < best.count {
            let original = best[i]
            if original > 0 {
                var candidate = best
                candidate[i] = 0
                if attempt(candidate) {
                    improved = true
                } else {
                    // Smallest failing value in (0, original]: binary search.
                    var low: UInt64 = 0
                    var high = original
                    while low + 1 < high && i < best.count && best[i] == high {
                        let mid = low + (high - low) / 2
                        var probe = best
                        probe[i] = mid
                        if attempt(probe) {
                            high = mid
                            improved = true
                        } else {
                            low = mid
                        }
                    }
                }
            }
            i += 1
        }
    }
    return (best, attempts)
}
