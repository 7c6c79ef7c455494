import DiffLabCore
import DiffLabEngines
import DiffLabResults
import DiffLabTraces
import Foundation
import Testing

@Suite("The real-data oracle: myers against an exact LCS and git")
struct OracleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The committed traces of Corpus/traces.
    static var committedTraces: [String] {
        let folder = root + "/Corpus/traces"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { folder + "/" + $0 }
    }

    /// The LCS by brute force: the longest subsequence of `a` (by subsets) that is one of `b`.
    static func bruteLCS(_ a: [Int], _ b: [Int]) -> Int {
        func isSubsequence(_ s: [Int], of t: [Int]) -> Bool {
            var i = 0
            for x in t where i < s.count && s[i] == x { i += 1 }
            return i == s.count
        }
        var best = 0
        for mask in 0..<(1 << a.count) {
            let s = a.indices.filter { mask & (1 << $0) != 0 }.map { a[$0] }
            if s.count > best && isSubsequence(s, of: b) { best = s.count }
        }
        return best
    }

    @Test func theExactLCSAgreesWithBruteForce() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<300 {
            let a = (0..<Int(rng.next(upTo: 9))).map { _ in Int(rng.next(upTo: 3)) }
            let b = (0..<Int(rng.next(upTo: 9))).map { _ in Int(rng.next(upTo: 3)) }
            #expect(TraceOracle.longestCommonSubsequence(a, b) == Self.bruteLCS(a, b), "\(a) \(b)")
        }
        #expect(TraceOracle.longestCommonSubsequence([], [1]) == 0)
        #expect(TraceOracle.longestCommonSubsequence([1, 2, 3, 4], [2, 4, 1, 3]) == 2)
    }

    @Test func theCommittedTracesAreThereAndRead() throws {
        #expect(Self.committedTraces.count >= 3)
        for path in Self.committedTraces {
            let trace = try Trace(jsonLines: try Data(contentsOf: URL(fileURLWithPath: path)), source: path)
            #expect(trace.versions.count >= 10, "\(path)")
            #expect(trace.provenance.source.hasPrefix("DiffLab's own "), "\(path) names its source: DiffLab's own history")
        }
    }

    /// Myers keeps an LCS in place on every pair of every committed trace; git, where installed,
    /// is compared, and its non-minimal pairs are reported (never fewer changed lines than the
    /// exact LCS's, which would prove the LCS wrong).
    @Test(arguments: committedTraces)
    func myersIsMinimalOnRealHistories(path: String) throws {
        let trace = try Trace(jsonLines: try Data(contentsOf: URL(fileURLWithPath: path)), source: path)
        let report = TraceOracle.check(trace, git: true)
        #expect(report.skipped == 0)
        #expect(report.pairs.count == trace.versions.count - 1)
        #expect(report.myersMisses.isEmpty, "myers missed an LCS: \(report.myersMisses)")
        for pair in report.pairs {
            guard let deleted = pair.gitDeleted, let added = pair.gitAdded else { continue }
            #expect(deleted + added >= (pair.old - pair.lcs) + (pair.new - pair.lcs), "git beat the exact LCS on pair \(pair.index)")
            #expect(deleted - added == pair.old - pair.new, "git's counts do not add up on pair \(pair.index)")
        }
        if report.gitUnavailable == nil {
            #expect(report.gitCompared == report.pairs.count)
        }
    }

    /// A planted bug is seen: counts that are not minimal fail the check.
    @Test func aNonMinimalAnswerIsCaught() {
        let pair = TraceOracle.Pair(index: 0, old: 4, new: 4, lcs: 3, myersDeletes: 2, myersInserts: 2, myersMoves: 0)
        #expect(!pair.myersIsMinimal)
        #expect(TraceOracle.Pair(index: 0, old: 4, new: 4, lcs: 3, myersDeletes: 0, myersInserts: 0, myersMoves: 1).myersIsMinimal)
    }
}
