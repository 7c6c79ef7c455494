import DiffLabCore
import Testing

/// Minimal moves' longest increasing run (`_markLongestIncreasingRun`): found from both ends of
/// the new list, meeting in the middle, with a galloping pile search; the same run on 1 and 2
/// threads, and a longest one.
@Suite("The longest increasing run")
struct LongestIncreasingRunTests {
    /// Plain patience sorting of `values` (compared as given) with a binary search over every pile:
    /// the piles' ends as indices into `values`, and each index's predecessor on its run.
    static func plainPiles(_ values: [Int?]) -> (piles: [Int], previous: [Int]) {
        var piles: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (i, value) in values.enumerated() {
            guard let value else { continue }
            var lo = 0
            var hi = piles.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[piles[mid]]! < value { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = piles[lo - 1] }
            if lo == piles.count { piles.append(i) } else { piles[lo] = i }
        }
        return (piles, previous)
    }

    /// The documented run, written plainly: the first half's piles forward, the second half's
    /// backward on negated old indices, and every join tried, the longest (then the longest
    /// second-half part) kept.
    static func documentedRun(_ newToOld: [Int]) -> [Bool] {
        let middle = newToOld.count / 2
        let forward = plainPiles(newToOld[..<middle].map { $0 >= 0 ? $0 : nil })
        let backwardValues = newToOld[middle...].reversed().map { $0 >= 0 ? -$0 : nil }
        let backward = plainPiles(Array(backwardValues))
        var best = (a: 0, b: backward.piles.count)
        for a in 0...forward.piles.count {
            for b in 0...backward.piles.count {
                if a > 0 && b > 0 {
                    let end = newToOld[forward.piles[a - 1]]
                    let start = -backwardValues[backward.piles[b - 1]]!
                    guard end < start else { continue }
                }
                if a + b > best.a + best.b || (a + b == best.a + best.b && a < best.a) { best = (a, b) }
            }
        }
        var stays = [Bool](repeating: false, count: newToOld.count)
        var i = best.a > 0 ? forward.piles[best.a - 1] : -1
        while i >= 0 {
            stays[i] = true
            i = forward.previous[i]
        }
        i = best.b > 0 ? backward.piles[best.b - 1] : -1
        while i >= 0 {
            stays[newToOld.count - 1 - i] = true
            i = backward.previous[i]
        }
        return stays
    }

    /// The longest strictly increasing subsequence's length, by the quadratic recurrence.
    static func longestLength(_ newToOld: [Int]) -> Int {
        var best = [Int](repeating: 0, count: newToOld.count)
        for n in newToOld.indices where newToOld[n] >= 0 {
            best[n] = 1 + (best[..<n].indices.filter { newToOld[$0] >= 0 && newToOld[$0] < newToOld[n] }.map { best[$0] }.max() ?? 0)
        }
        return best.max() ?? 0
    }

    static func marks(_ newToOld: [Int], _ buffers: inout _LongestRunBuffers, threads: Int = 1) -> [Bool] {
        newToOld.withUnsafeBufferPointer { _markLongestIncreasingRun($0, &buffers, threads: threads) }
        return newToOld.indices.map { newToOld[$0] >= 0 && buffers.previous[$0] == _onTheRun }
    }

    /// A new-to-old map of `count` new elements over `count` old ones: `shape` 0 random, 1 in
    /// order with a few elements displaced (far or near), 2 reversed with a few displaced, 3
    /// blocks moved; about one in `holeRate` new elements is unpaired (-1).
    static func map(count: Int, shape: Int, holeRate: UInt64, _ random: inout SplitMix64) -> [Int] {
        // A uniform value in 0..<bound (SplitMix64's bound is inclusive).
        func below(_ bound: Int) -> Int { Int(random.next(upTo: UInt64(bound - 1))) }
        var old = Array(0..<count)
        switch shape {
        case 0:
            for i in old.indices.reversed() where i > 0 { old.swapAt(i, below(i + 1)) }
        case 1, 2:
            if shape == 2 { old.reverse() }
            for _ in 0..<(count / 20 + 1) where count > 1 {
                let from = below(count)
                let distance = below(2) == 0 ? 3 : count
                let to = min(count - 1, from + below(distance))
                old.swapAt(from, to)
            }
        default:
            var blocks: [ArraySlice<Int>] = []
            var start = 0
            while start < count {
                let length = 1 + below(40)
                blocks.append(old[start..<min(count, start + length)])
                start += length
            }
            for i in blocks.indices.reversed() where i > 0 { blocks.swapAt(i, below(i + 1)) }
            old = Array(blocks.joined())
        }
        return old.map { holeRate > 0 && below(Int(holeRate)) == 0 ? -1 : $0 }
    }

    @Test func marksTheDocumentedRunOnOneAndTwoThreads() {
        var random = SplitMix64(seed: 30)
        var buffers = _LongestRunBuffers()
        var twoThreads = _LongestRunBuffers()
        var compared = 0
        for round in 0..<2_000 {
            let count = round < 200 ? round % 12 : Int(random.next(upTo: round < 1_900 ? 300 : 5_000))
            let newToOld = Self.map(count: count, shape: round % 4, holeRate: [0, 2, 9][round % 3], &random)
            let marked = Self.marks(newToOld, &buffers)
            #expect(marked == Self.documentedRun(newToOld), "\(newToOld)")
            #expect(Self.marks(newToOld, &twoThreads, threads: 2) == marked, "the same run on two threads")
            let run = newToOld.indices.filter { marked[$0] }.map { newToOld[$0] }
            #expect(zip(run, run.dropFirst()).allSatisfy { $0 < $1 }, "the marked elements ascend")
            #expect(newToOld.indices.allSatisfy { !marked[$0] || newToOld[$0] >= 0 }, "only paired elements are marked")
            let longest = count <= 120 ? Self.longestLength(newToOld) : Self.plainPiles(newToOld.map { $0 >= 0 ? $0 : nil }).piles.count
            #expect(run.count == longest, "the run is a longest one")
            compared += 1
        }
        #expect(compared == 2_000)
    }

    @Test func edgeCases() {
        var buffers = _LongestRunBuffers()
        #expect(Self.marks([], &buffers) == [])
        #expect(Self.marks([7], &buffers) == [true], "one element: the second half alone")
        #expect(Self.marks([-1, -1], &buffers) == [false, false])
        #expect(Self.marks([0, 1, 2, 3], &buffers) == [true, true, true, true])
        #expect(Self.marks([3, 2, 1, 0], &buffers) == [false, false, true, false], "a second-half run wins a tie: its largest start")
        #expect(Self.marks([5, 0, 1, 2, 3, 4], &buffers) == [false, true, true, true, true, true])
        #expect(Self.marks([1, 2, 3, 4, 5, 0], &buffers) == [true, true, true, true, true, false])
        #expect(Self.marks([4, 5, 0, 1, 2, 3], &buffers) == [false, false, true, true, true, true], "the second half alone")
        // A long run, then elements that fall back by every distance the gallop probes.
        let falling = Array(0..<100).map { $0 * 2 } + [199, 197, 150, 101, 63, 1, -1, 0] + Array(0..<100).map { 400 - $0 * 3 }
        #expect(Self.marks(falling, &buffers) == Self.documentedRun(falling))
        #expect(buffers.retainedBytes > 0, "the buffers are kept for the next call")
    }
}
