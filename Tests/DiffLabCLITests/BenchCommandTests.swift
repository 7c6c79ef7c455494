import DiffLabCLI
import DiffLabJSON
import Foundation
import Testing

@Suite("difflab bench and difflab policy")
struct BenchCommandTests {
    @Test func benchWritesOneResultsFile() throws {
        let files = Files([:])
        let out = files.path("bench.json")
        let r = run([
            "bench", "--engines", "hashmap,heckel", "--profiles", "differencekit", "--sizes", "300,600", "--kinds", "int", "--budget", "0.002",
            "--allocators", "system", "--out", out,
        ])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("differencekit · int · 300 items · system"))
        #expect(r.out.hasSuffix("results: \(out)\n"))
        let results = try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8))
        #expect(results["schema"]?.stringValue == "difflab-bench/1")
        #expect(results["machine"]?["cores"] != nil)
        let measurements = try #require(results["measurements"]?.arrayValue)
        #expect(measurements.count == 2 * 4)  // floor, hashmap, heckel, stdlib × 2 sizes
        for m in measurements {
            #expect(m["engine"]?.stringValue != nil && m["profile"]?.stringValue == "differencekit")
            #expect(m["size"]?.intValue != nil && m["median"]?.doubleValue != nil)
        }
        #expect(results["scaling"]?.arrayValue?.isEmpty == false)
    }

    @Test func benchUsageErrors() {
        #expect(run(["bench", "--profiles", "tiny"]).status == 64)
        #expect(run(["bench", "--allocators", "tcmalloc"]).status == 64)
        #expect(run(["bench", "--kinds", "float"]).status == 64)
        #expect(run(["bench", "--help"]).out.contains("stdlib reference"))
    }

    @Test func policyNamesTheCrossover() throws {
        let files = Files([:])
        let out = files.path("policy.json")
        let r = run(["policy", "--sizes", "500,1000", "--policies", "main,background", "--duration", "0.2", "--out", out])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("crossover (batch updates): "))
        #expect(r.out.contains("crossover (with the reload fallback): "))
        let results = try JSONValue.parse(try String(contentsOfFile: out, encoding: .utf8))
        #expect(results["runs"]?.arrayValue?.count == 2 * 2 * 2)
        #expect(results["crossoverSize"]?["batch"] != nil)
        #expect(run(["policy", "--policies", "lazy"]).status == 64)
    }
}
