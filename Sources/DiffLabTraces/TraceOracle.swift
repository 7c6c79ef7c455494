import DiffLabCore
import DiffLabEngines
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults

/// The real-data oracle: on each consecutive pair of a trace's versions (a file's history, say),
/// `myers` with ``MoveStrategy/minimal`` must keep a longest common subsequence of identifiers in
/// place, so `deletes + moves = old − LCS` and `inserts + moves = new − LCS`, where LCS is an
/// independent exact computation (dynamic programming). Where git is present, `git diff
/// --no-index --minimal --numstat` on the same versions (one identifier per line) is compared
/// too: a minimal line diff deletes `old − LCS` lines and adds `new − LCS`.
public enum TraceOracle {
    /// The largest pair the exact LCS is computed for: old × new ≤ 100,000,000 cells (about a
    /// second); larger pairs are counted as skipped.
    public static let maxCells = 100_000_000

    /// What the oracle found on one pair.
    public struct Pair: Sendable, Equatable {
        /// The pair's index (versions `index` and `index + 1`).
        public var index: Int
        /// Items of the old and new version.
        public var old: Int, new: Int
        /// The exact LCS length of the identifier sequences.
        public var lcs: Int
        /// Myers' deletes, inserts and moves (minimal moves).
        public var myersDeletes: Int, myersInserts: Int, myersMoves: Int
        /// Lines git deleted and added, when git ran.
        public var gitDeleted: Int?, gitAdded: Int?

        /// A pair's figures; see the properties.
        public init(
            index: Int, old: Int, new: Int, lcs: Int, myersDeletes: Int, myersInserts: Int, myersMoves: Int, gitDeleted: Int? = nil,
            gitAdded: Int? = nil
        ) {
            (self.index, self.old, self.new, self.lcs) = (index, old, new, lcs)
            (self.myersDeletes, self.myersInserts, self.myersMoves) = (myersDeletes, myersInserts, myersMoves)
            (self.gitDeleted, self.gitAdded) = (gitDeleted, gitAdded)
        }

        /// Whether myers kept a longest common subsequence in place.
        public var myersIsMinimal: Bool { myersDeletes + myersMoves == old - lcs && myersInserts + myersMoves == new - lcs }
        /// Whether git's line counts are those of a minimal diff; `nil` when git did not run.
        public var gitIsMinimal: Bool? {
            guard let gitDeleted, let gitAdded else { return nil }
            return gitDeleted == old - lcs && gitAdded == new - lcs
        }
    }

    /// The oracle over a whole trace.
    public struct Report: Sendable, Equatable {
        /// One entry per pair checked.
        public var pairs: [Pair]
        /// Pairs larger than ``maxCells`` (not checked).
        public var skipped: Int
        /// Why git was not compared, when it was not (not installed, say).
        public var gitUnavailable: String?

        /// Pairs where myers did not keep an LCS in place (a bug in myers, or in the oracle).
        public var myersMisses: [Pair] { pairs.filter { !$0.myersIsMinimal } }
        /// Pairs where git's counts are not minimal (git is not always minimal, even with --minimal).
        public var gitMisses: [Pair] { pairs.filter { $0.gitIsMinimal == false } }
        /// Pairs git was compared on.
        public var gitCompared: Int { pairs.count { $0.gitIsMinimal != nil } }
    }

    /// Checks every pair of `trace` (flattened sections), comparing with git when `git` is set
    /// and git can be run.
    ///
    /// - Complexity: O(Σ old × new) time, O(new) memory per pair, plus one git process per pair.
    public static func check(_ trace: Trace, git: Bool) -> Report {
        var report = Report(pairs: [], skipped: 0)
        var folder: String?
        if git {
            do { folder = try Cleanup.shared.makeTemporaryDirectory("difflab-oracle") } catch { report.gitUnavailable = error.description }
        }
        defer { if let folder { Cleanup.shared.removeTemporaryDirectory(folder) } }
        for index in 0..<max(trace.versions.count - 1, 0) {
            let old = trace.versions[index].items.map(\.id)
            let new = trace.versions[index + 1].items.map(\.id)
            let (cells, overflow) = old.count.multipliedReportingOverflow(by: new.count)
            guard !overflow, cells <= maxCells else {
                report.skipped += 1
                continue
            }
            let result = MyersEngine().diff(from: old, to: new, moves: .minimal)
            var pair = Pair(
                index: index, old: old.count, new: new.count, lcs: longestCommonSubsequence(old, new), myersDeletes: result.deletes.count,
                myersInserts: result.inserts.count, myersMoves: result.moves.count)
            if let directory = folder, report.gitUnavailable == nil {
                switch gitNumstat(old, new, trace: trace, folder: directory) {
                case .success(let counts): (pair.gitDeleted, pair.gitAdded) = (counts.deleted, counts.added)
                case .failure(let reason): report.gitUnavailable = reason.description
                }
            }
            report.pairs.append(pair)
        }
        return report
    }

    /// The length of a longest common subsequence of `a` and `b`, by dynamic programming over
    /// two rows.
    ///
    /// - Complexity: O(a × b) time, O(b) memory.
    public static func longestCommonSubsequence(_ a: [Int], _ b: [Int]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        var previous = [Int](repeating: 0, count: b.count + 1)
        var current = previous
        for x in a {
            for j in 0..<b.count {
                current[j + 1] = x == b[j] ? previous[j] + 1 : max(previous[j + 1], current[j])
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Why git could not be compared.
    public struct GitUnavailable: Error, Sendable, CustomStringConvertible {
        /// What failed, in words.
        public var description: String
    }

    /// `git diff --no-index --minimal --numstat` of the two versions written one identifier (its
    /// string, a hash for the committed traces) per line.
    static func gitNumstat(_ old: [Int], _ new: [Int], trace: Trace, folder: String) -> Result<(deleted: Int, added: Int), GitUnavailable> {
        let a = folder + "/a"
        let b = folder + "/b"
        let out = folder + "/numstat"
        let err = folder + "/errors"
        func write(_ ids: [Int], _ path: String) throws(PlatformError) {
            let text = ids.map { trace.ids[$0] + "\n" }.joined()
            let descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate], permissions: 0o600)
            defer { descriptor.closeIgnoringErrors() }
            try descriptor.writeAll(Array(text.utf8))
        }
        do throws(PlatformError) {
            try write(old, a)
            try write(new, b)
        } catch {
            return .failure(GitUnavailable(description: "cannot write the versions: \(error.message)"))
        }
        let status: Int32
        do {
            let pid = try spawnProcess(
                "git", ["diff", "--no-index", "--minimal", "--numstat", "--no-color", "--", a, b],
                environment: ["GIT_CONFIG_NOSYSTEM": "1", "HOME": folder, "LC_ALL": "C"], stdout: out, stderr: err)
            status = try waitProcess(pid, writing: out, maxBytes: 1 << 20, seconds: 120, what: "git diff")
        } catch {
            return .failure(GitUnavailable(description: "\(error)"))
        }
        // 0: no difference; 1: differences.
        guard status == 0 || status == 1, let bytes = try? readFile(out, limit: 1 << 20) else {
            return .failure(GitUnavailable(description: "git diff exited with status \(status)"))
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.split(separator: "\n").first else { return .success((0, 0)) }
        let fields = line.split(separator: "\t")
        guard fields.count >= 2, let added = Int(fields[0]), let deleted = Int(fields[1]) else {
            return .failure(GitUnavailable(description: "git diff --numstat printed '\(excerpt(Array(line.utf8)[...]))'"))
        }
        return .success((deleted, added))
    }
}
