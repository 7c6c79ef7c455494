import DiffLabCLI
import DiffLabJSON
import Foundation
import Testing

@Suite("difflab measure and difflab gate")
struct GateCommandTests {
    @Test func measureSpeaksItsProtocol() throws {
        #expect(run(["measure", "--protocol"]).out == "difflab-measure/1\n")
        let r = run(["measure", "--cells", "hashmap:differencekit:int:500,hash-floor:small-edit:model:300", "--samples", "3"])
        #expect(r.status == 0, "\(r.err)")
        let json = try JSONValue.parse(r.out)
        #expect(json["protocol"]?.stringValue == "difflab-measure/1")
        let results = try #require(json["results"]?.arrayValue)
        #expect(results.map { $0["cell"]?.stringValue } == ["hashmap:differencekit:int:500", "hash-floor:small-edit:model:300"])
        for result in results {
            #expect(result["samples"]?.arrayValue?.count == 3)
            #expect(result["samples"]?.arrayValue?.allSatisfy { ($0.doubleValue ?? 0) > 0 } == true)
        }
    }

    @Test(arguments: ["hashmap:differencekit:int", "quick:differencekit:int:10", "hashmap:tiny:int:10", "hashmap:differencekit:float:10", "hashmap:differencekit:int:0"])
    func measureRejectsBadCells(cell: String) {
        let r = run(["measure", "--cells", cell])
        #expect(r.status == 64)
        #expect(r.err.contains("cell") || r.err.contains("unknown"))
    }

    /// Every gate error is exit 1 — never 2, which means "regression".
    @Test(arguments: [
        ["gate", "--rounds", "0"], ["gate", "--base", "HEAD", "--baseline", "x.json"], ["gate", "extra"],
        ["gate", "--thresholds", "/nonexistent/thresholds.json"], ["gate", "--cells", "nope"],
    ])
    func gateErrorsExitOne(arguments: [String]) {
        let r = run(arguments)
        #expect(r.status == 1, "\(arguments): \(r.err)")
        #expect(!r.err.isEmpty)
    }

    @Test func gateRejectsABadThresholdsFile() {
        let files = Files(["t.json": #"{"schema": "difflab-gate-thresholds/1", "alpha": 0.01, "metrics": {}}"#])
        let r = run(["gate", "--thresholds", files.path("t.json"), "--base-binary", "/bin/true"])
        #expect(r.status == 1)
        #expect(r.err.contains("no entry for \"time\""))
    }

    /// The whole gate, end to end, with the debug `difflab` as both builds (so it needs
    /// `swift build` to have built the executable, which `swift test` does).
    @Test func gateRunsTwoBuildsEndToEnd() throws {
        let binary = ".build/debug/difflab"
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build the difflab executable first")
        let files = Files([:])
        let out = files.path("gate.json")
        let summary = files.path("summary.md")
        let r = run([
            "gate", "--base-binary", binary, "--head-binary", binary, "--cells", "hashmap:differencekit:int:300,heckel:small-edit:int:300",
            "--rounds", "4", "--samples", "3", "--no-instructions", "--out", out, "--summary", summary,
        ])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("## DiffLab regression gate: PASS"))
        let json = try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8))
        #expect(json["schema"]?.stringValue == "difflab-gate/1")
        let comparisons = try #require(json["comparisons"]?.arrayValue)
        #expect(comparisons.count == 2 * 4)  // time, instructions, bytes, requests per cell
        let time = comparisons.filter { $0["metric"]?.stringValue == "time" }
        #expect(time.allSatisfy { $0["rounds"]?.intValue == 4 && $0["verdict"]?.stringValue == "pass" })
        // 4 rounds can never be significant after Holm over 2 cells: the smallest p is 2/16.
        #expect(time.allSatisfy { ($0["pAdjusted"]?.doubleValue ?? 0) >= 0.125 })
        let instructions = comparisons.filter { $0["metric"]?.stringValue == "instructions" }
        #expect(instructions.allSatisfy { $0["verdict"]?.stringValue == "not-gated" })
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == r.out)
    }
}
