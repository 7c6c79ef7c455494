import DiffLabPlatform
import DiffLabResults
import DiffLabTraces
import Foundation
import Testing

/// A private temporary folder, removed at the end of the test.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("difflab-traces-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}

let provenance = TraceProvenance(source: "test", tool: "tests", date: "now", ids: "-", contents: "-")

@Suite("Trace importers: snapshots and app logs")
struct SnapshotImportTests {
    @Test func aFolderIsReadInNameOrderWithTimesFromNames() throws {
        let folder = try TemporaryFolder()
        try folder.write("snap-002000.json", #"[{"id": 1, "content": "b"}, 2, 3]"#)
        try folder.write("snap-001000.json", #"[1, 2]"#)
        try folder.write("notes.txt", "ignored")
        let trace = try SnapshotImport.folder(folder.path, times: .fileNames, strings: .text, maxBytes: 1 << 20, provenance: provenance)
        #expect(trace.versions.map(\.items.count) == [2, 3])
        #expect(trace.versions.map(\.timestampMs) == [1000, 2000])
        #expect(trace.ids == ["1", "2", "3"], "canonical JSON text: numbers as integers")
        #expect(trace.contents[trace.versions[1].items[0].content] == "\"b\"")
        #expect(trace.provenance.ids.contains("canonical JSON text"))

        let hashed = try SnapshotImport.folder(folder.path, times: .none, strings: .hashed, maxBytes: 1 << 20, provenance: provenance)
        #expect(hashed.ids == ["1", "2", "3"].map { traceHash($0) })
        #expect(!hashed.hasTimestamps)
    }

    @Test func sectionedSnapshotsAndTimeFields() throws {
        let folder = try TemporaryFolder()
        try folder.write("a.json", #"{"t": 10, "sections": [{"id": "s", "items": [1, 2]}, {"id": "u", "items": []}]}"#)
        try folder.write("b.json", #"{"t": 20, "items": [{"id": "x", "content": {"b": 1, "a": 2.0}}]}"#)
        let trace = try SnapshotImport.folder(folder.path, times: .field("t"), strings: .text, maxBytes: 1 << 20, provenance: provenance)
        #expect(trace.versions[0].sections?.count == 2)
        #expect(trace.sectionIDs == ["\"s\"", "\"u\""])
        #expect(trace.contents.last == #"{"a":2,"b":1}"#, "keys sorted, integral numbers as integers")
        #expect(trace.versions.map(\.timestampMs) == [10, 20])
    }

    /// Found by a review: a FIFO named `*.json` made the import wait for a writer forever.
    @Test func aFIFOSnapshotIsRefusedWithoutWaiting() throws {
        let folder = try TemporaryFolder()
        try folder.write("a.json", "[1]")
        try FileSystem.makeFIFO(folder.path + "/b.json")
        #expect {
            try SnapshotImport.folder(folder.path, times: .none, strings: .text, maxBytes: 100, provenance: provenance)
        } throws: { error in
            let error = error as? TraceImportError
            return error?.isMissingInput == true && error?.description.contains("b.json': not a regular file") == true
        }
        // A link to a regular file is read as the file.
        try FileManager.default.removeItem(atPath: folder.path + "/b.json")
        try folder.write("target.txt", "[2]")
        try FileSystem.makeSymbolicLink(at: folder.path + "/b.json", to: folder.path + "/target.txt")
        let trace = try SnapshotImport.folder(folder.path, times: .none, strings: .text, maxBytes: 100, provenance: provenance)
        #expect(trace.versions.map(\.items.count) == [1, 1])
    }

    @Test func badFoldersAndSnapshotsAreRefusedNamingTheFile() throws {
        let missing = try TemporaryFolder()
        let gone = missing.path + "/nothing"
        #expect(throws: TraceImportError.self) {
            try SnapshotImport.folder(gone, times: .none, strings: .hashed, maxBytes: 100, provenance: provenance)
        }
        do {
            _ = try SnapshotImport.folder(gone, times: .none, strings: .hashed, maxBytes: 100, provenance: provenance)
        } catch {
            #expect(error.isMissingInput)
        }
        func refused(_ files: [(String, String)], times: SnapshotTimes = .none, maxBytes: Int = 1 << 20, _ expected: String) throws {
            let folder = try TemporaryFolder()
            for (name, text) in files { try folder.write(name, text) }
            do {
                _ = try SnapshotImport.folder(folder.path, times: times, strings: .hashed, maxBytes: maxBytes, provenance: provenance)
                Issue.record("accepted: \(files)")
            } catch {
                #expect(error.description.contains(expected), "\(error)")
            }
        }
        try refused([], "no *.json snapshot files")
        try refused([("a.json", "[1,")], "a.json': not JSON")
        try refused([("a.json", #"{"x": 1}"#)], "a.json': an object snapshot holds its list")
        try refused([("a.json", #""text""#)], "expected a list")
        try refused([("a.json", "[[1]]")], "a.json'")
        try refused([("a.json", "[1]"), ("b.json", "[1]")], times: .field("t"), "a.json': expected an object with the time \"t\"")
        try refused(
            [("a.json", #"{"t": 5, "items": []}"#), ("b.json", #"{"t": 4, "items": []}"#)], times: .field("t"), "b.json': its time 4 ms is earlier")
        try refused([("a.json", #"{"t": -1, "items": []}"#)], times: .field("t"), "\"t\" should be an integer time")
        try refused([("nodigits.json", "[]")], times: .fileNames, "the file name has no run of digits")
        try refused([("a.json", "[1, 2, 3, 4, 5]")], maxBytes: 4, "larger than")
    }

    @Test func appLogsAreReadLineByLine() throws {
        let log = """
            {"timestampMs": 100, "items": [1, 2]}
            {"timestampMs": 150, "items": [2, {"id": 3, "content": "x"}]}

            """
        let trace = try SnapshotImport.appLog(Array(log.utf8), source: "app.jsonl", strings: .text, provenance: provenance)
        #expect(trace.versions.count == 2)
        #expect(trace.versions.map(\.timestampMs) == [100, 150])
        for (text, expected) in [
            ("", "app.jsonl: is empty"), ("[1]\n[", "app.jsonl:2: not JSON"),
            ("{\"timestampMs\": 1, \"items\": []}\n[1]", "app.jsonl:2: has no time"),
            ("[1]\n{\"timestampMs\": 1, \"items\": []}", "app.jsonl:2: has a time, but earlier snapshots have none"),
            ("{\"timestampMs\": \"soon\", \"items\": []}", "\"timestampMs\" should be an integer"),
        ] {
            #expect(throws: TraceImportError.self, "\(text)") {
                _ = try SnapshotImport.appLog(Array(text.utf8), source: "app.jsonl", strings: .hashed, provenance: provenance)
            }
            do {
                _ = try SnapshotImport.appLog(Array(text.utf8), source: "app.jsonl", strings: .hashed, provenance: provenance)
            } catch {
                #expect(error.description.contains(expected), "\(error)")
            }
        }
    }

    @Test func textStringsOverTheLimitAskForHashing() throws {
        let long = String(repeating: "a", count: Trace.maxStringBytes)
        let log = "[\"\(long)\"]\n"
        #expect(throws: TraceImportError.self) {
            _ = try SnapshotImport.appLog(Array(log.utf8), source: "l", strings: .text, provenance: provenance)
        }
        let hashed = try SnapshotImport.appLog(Array(log.utf8), source: "l", strings: .hashed, provenance: provenance)
        #expect(hashed.ids.first?.count == 16)
    }
}

@Suite("Trace importer: git history")
struct GitImportTests {
    /// Runs git in `folder`; `nil` when git is not installed.
    @discardableResult
    static func git(_ folder: String, _ arguments: [String], date: Int = 1_700_000_000) throws -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_AUTHOR_DATE"] = "@\(date) +0000"
        environment["GIT_COMMITTER_DATE"] = "@\(date) +0000"
        environment["GIT_AUTHOR_NAME"] = "t"
        environment["GIT_AUTHOR_EMAIL"] = "t@example.com"
        environment["GIT_COMMITTER_NAME"] = "t"
        environment["GIT_COMMITTER_EMAIL"] = "t@example.com"
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["HOME"] = folder
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    static var hasGit: Bool { (try? git("/", ["--version"])) == 0 }

    @Test(.enabled(if: hasGit)) func aFilesHistoryBecomesATrace() throws {
        let folder = try TemporaryFolder()
        let repo = folder.path
        try #require(try Self.git(repo, ["init", "-q", "-b", "main"]) == 0)
        let versions = ["a\nb\nc\n", "a\nc\nb\nd\n", "a\n\n\nb", ""]
        for (i, text) in versions.enumerated() {
            if i == versions.count - 1 {
                try #require(try Self.git(repo, ["rm", "-q", "f.txt"], date: 1_700_000_000 + i) == 0)
            } else {
                try folder.write("f.txt", text)
                try folder.write("other.txt", "\(i)")
                try #require(try Self.git(repo, ["add", "-A"]) == 0)
            }
            try #require(try Self.git(repo, ["commit", "-q", "-m", "v\(i)"], date: 1_700_000_000 + i) == 0)
        }
        let trace = try GitImport.history(repository: repo, path: "f.txt", maxBytes: 1 << 20, date: "now")
        #expect(trace.versions.map(\.items.count) == [3, 4, 4, 0], "lines split at newlines; a deleted file is empty")
        #expect(trace.versions.map(\.timestampMs) == [0, 1, 2, 3].map { (1_700_000_000 + $0) * 1000 })
        #expect(trace.ids.contains(traceHash("")), "blank lines are items too")
        #expect(trace.versions[2].items[1] == trace.versions[2].items[2], "repeated lines are duplicate identifiers")
        #expect(trace.provenance.source.contains("4 of 4"))
        #expect(!trace.jsonLines.contains("\"a\""), "no text of the file is kept")

        let newest = try GitImport.history(repository: repo, path: "f.txt", maxVersions: 2, maxBytes: 1 << 20, date: "now")
        #expect(newest.versions.map(\.items.count) == [4, 0])

        for (path, expected) in [("missing.txt", "no first-parent commit"), ("/abs", "relative to the repository"), ("-x", "relative")] {
            do {
                _ = try GitImport.history(repository: repo, path: path, maxBytes: 1 << 20, date: "now")
                Issue.record("accepted \(path)")
            } catch {
                #expect(error.description.contains(expected), "\(error)")
            }
        }
        do {
            _ = try GitImport.history(repository: repo, path: "f.txt", maxBytes: 4, date: "now")
            Issue.record("accepted an answer over the limit")
        } catch {
            #expect(error.description.contains("f.txt"), "\(error)")
        }
        try folder.write("bin.dat", "a\u{0}b")
        try #require(try Self.git(repo, ["add", "-A"]) == 0)
        try #require(try Self.git(repo, ["commit", "-q", "-m", "binary"]) == 0)
        do {
            _ = try GitImport.history(repository: repo, path: "bin.dat", maxBytes: 1 << 20, date: "now")
            Issue.record("accepted a binary file")
        } catch {
            #expect(error.description.contains("is binary"), "\(error)")
        }
    }

    @Test(.enabled(if: hasGit)) func aFolderThatIsNoRepositoryIsMissingInput() throws {
        let folder = try TemporaryFolder()
        do {
            _ = try GitImport.history(repository: folder.path, path: "f", maxBytes: 1 << 20, date: "now")
            Issue.record("accepted a folder that is not a repository")
        } catch {
            #expect(error.isMissingInput, "\(error)")
        }
    }
}
