import DiffLabCLI
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("difflab report")
struct ReportCommandTests {
    static let bench = #"""
        {"schema":"difflab-bench/1","measurements":[
         {"engine":"hash-floor","profile":"p","size":10,"kind":"int","allocator":"jemalloc","median":1e-6,"samples":[1e-6]},
         {"engine":"hashmap","profile":"p","size":10,"kind":"int","allocator":"jemalloc","median":2e-6,"samples":[2e-6]},
         {"engine":"hashmap","profile":"p","size":100,"kind":"int","allocator":"jemalloc","skipped":"too slow"}]}
        """#

    @Test func writesTheReportAndItsPlots() {
        let files = Files(["bench.json": ReportCommandTests.bench])
        let out = files.path("out")
        defer { removeDirectory(out) }
        let result = run(["report", files.path("bench.json"), "--out", out])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "report: \(out)/report.md\n")
        #expect(access(out + "/report.md", R_OK) == 0)
        #expect(access(out + "/bench-time-vs-size.svg", R_OK) == 0)
    }

    @Test(arguments: [
        (#"{"schema":"difflab-gate/1"}"#, Int32(65), "unknown schema"),
        ("{", 65, "malformed JSON"),
        (#"{"schema":"difflab-bench/1","measurements":[{"engine":1}]}"#, 65, "measurements[0].engine"),
    ])
    func badDataExits65(_ text: String, _ status: Int32, _ message: String) {
        let files = Files(["bad.json": text])
        let result = run(["report", files.path("bad.json"), "--out", files.path("out")])
        #expect(result.status == status)
        #expect(result.err.contains(message), "\(result.err)")
        #expect(access(files.path("out"), F_OK) != 0)  // nothing written
    }

    @Test func unreadableFileExits66AndBadCommandLineExits64() {
        #expect(run(["report", "/nonexistent/results.json"]).status == 66)
        #expect(run(["report"]).status == 64)
        #expect(run(["report", "--bogus", "x.json"]).status == 64)
        #expect(run(["report", "--help"]).status == 0)
    }
}

/// Removes `directory` and the files directly inside it.
private func removeDirectory(_ directory: String) {
    if let d = opendir(directory) {
        while let entry = readdir(d) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { unlink(directory + "/" + name) }
        }
        closedir(d)
    }
    rmdir(directory)
}
