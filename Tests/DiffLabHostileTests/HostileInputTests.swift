import DiffLabCLI
import DiffLabPlatform
import Testing

/// One hostile run of `difflab`: the arguments (`@name` stands for the fixture `name` in the run's
/// scratch folder, `@bin` for the difflab binary), the exit statuses it may end with, and the
/// fixtures it must leave exactly as they were.
struct HostileCase: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var expected: Set<Int32>
    /// Fixture names that must be unchanged after the run (type, size, mtime, link target).
    var untouched: [String] = []
    /// Text the error line must contain, when the run is an error.
    var message: String?
    /// A fixture to use as standard input.
    var stdin: String?
    /// Text standard output must contain (for runs that answer rather than fail).
    var output: String?
    /// Extra environment (`NAME=value`; `@name` stands for a fixture).
    var environment: [String] = []

    var testDescription: String { arguments.joined(separator: " ") + " → \(expected.sorted())" }
}

/// Statuses that are errors reported as one line on standard error.
let errorStatuses: Set<Int32> = [64, 65, 66, 73]

/// The fixtures every case's scratch folder starts with.
func makeFixtures(_ scratch: Scratch) {
    scratch.write("list.json", "[1,2,3]")
    scratch.write(
        "bench.json",
        #"{"schema":"difflab-bench/1","measurements":[{"engine":"hashmap","profile":"reverse","size":100,"kind":"int","allocator":"system","median":1e-6}]}"#
    )
    scratch.write("list2.json", "[3,2,1,4]")
    scratch.write("empty.json", "")
    scratch.write("garbage.json", "this is not json")
    scratch.write("badutf8.json", [0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d])
    scratch.write("deep.json", String(repeating: "[", count: 100_000))
    scratch.write("huge-number.json", "[1e999]")
    scratch.write("object.json", #"{"a":1}"#)
    scratch.write("big.json", "[" + String(repeating: "1,", count: 100_000) + "1]")
    scratch.write("victim.txt", "DiffLab must not touch this file\n")
    scratch.write("regular.txt", "a regular file, not a folder\n")
    scratch.make("fifo") { try FileSystem.makeFIFO($0) }
    scratch.make("link-missing") { try FileSystem.makeSymbolicLink(at: $0, to: scratch.file("absent-target")) }
    scratch.make("link-file") { try FileSystem.makeSymbolicLink(at: $0, to: scratch.file("victim.txt")) }
    scratch.make("dir") { try FileSystem.makeDirectory($0) }
    scratch.make("emptydir") { try FileSystem.makeDirectory($0) }
    // A fake baseline build that speaks the protocol, then floods its output.
    scratch.write("flood.sh", "#!/bin/sh\nif [ \"$2\" = --protocol ]; then echo difflab-measure/1; exit 0; fi\nexec yes aaaaaaaaaaaaaaaaaaaaaaaa\n")
    scratch.make("flood.sh") { try FileSystem.setPermissions($0, 0o755) }
    // Out-of-process engines that say a valid hello, then crash, hang or answer garbage.
    let hello =
        #"{"type":"hello","protocol":"difflab-engine/1","name":"hostile","promises":{"duplicates":true,"minimalMoves":false,"reference":"none"},"batch":false}"#
    for (name, then) in [("crash", "exit 3"), ("hang", "exec sleep 1000"), ("garbage", "echo garbage\nwhile read line; do echo garbage; done")] {
        scratch.write("\(name)-engine.sh", "#!/bin/sh\nread line\necho '\(hello)'\nread line\n\(then)\n")
        scratch.make("\(name)-engine.sh") { try FileSystem.setPermissions($0, 0o755) }
    }
    scratch.write("no-hello-engine.sh", "#!/bin/sh\necho not a hello\n")
    scratch.make("no-hello-engine.sh") { try FileSystem.setPermissions($0, 0o755) }
    scratch.make("fifo-folder") { try FileSystem.makeDirectory($0) }
    scratch.make("fifo-folder/a.json") { try FileSystem.makeFIFO($0) }
    scratch.make("seeds-with-fifo") { try FileSystem.makeDirectory($0) }
    scratch.make("seeds-with-fifo/seed-1.bin") { try FileSystem.makeFIFO($0) }
    // Jobs a spawned fuzzing worker must refuse (exit 3, one line naming the problem).
    scratch.write("job-subject.json", #"{"kind":"replay","backtraces":false,"choices":["1"],"size":1,"subject":99,"property":0}"#)
    scratch.write("job-choice.json", #"{"kind":"replay","backtraces":false,"choices":["-1"],"size":1,"subject":0,"property":0}"#)
    scratch.write(
        "job-slots.json",
        #"{"kind":"campaign","backtraces":false,"slots":"/nonexistent/slots","findings":"/nonexistent/f","firstInput":0,"seconds":1,"skipping":[],"known":[]}"#
    )
    scratch.write(
        "job-skipping.json",
        #"{"kind":"campaign","backtraces":false,"slots":"s","findings":"f","firstInput":0,"seconds":1,"skipping":[[0,1,2]],"known":[]}"#)
    scratch.write("job-property.json", #"{"kind":"replay","backtraces":false,"choices":["1"],"size":1,"subject":0,"property":7}"#)
    scratch.write("job-size.json", #"{"kind":"replay","backtraces":false,"choices":["1"],"size":5000,"subject":0,"property":0}"#)
    scratch.write("job-negative.json", #"{"kind":"replay","backtraces":false,"choices":["1"],"size":1,"subject":-1,"property":0}"#)
    scratch.write(
        "job-seconds.json",
        #"{"kind":"campaign","backtraces":false,"slots":"s","findings":"f","firstInput":0,"seconds":1e999,"skipping":[],"known":[]}"#)
    // One choice past a replay's bound (2^17): refused by count, before any is decoded.
    let manyChoices = Array(repeating: #""1""#, count: (1 << 17) + 1).joined(separator: ",")
    scratch.write(
        "job-choices-many.json", #"{"kind":"replay","backtraces":false,"choices":["# + manyChoices + #"],"size":1,"subject":0,"property":0}"#)
    // A link to a job the worker would otherwise run: a job is never read through a link.
    scratch.write("job-valid.json", #"{"kind":"replay","backtraces":false,"choices":["1"],"size":1,"subject":0,"property":0}"#)
    scratch.make("job-link.json") { try FileSystem.makeSymbolicLink(at: $0, to: scratch.file("job-valid.json")) }
    let marks = String(repeating: "\u{301}\u{316}", count: 200)
    scratch.write("combining.json", "[\"a\(marks)\"]")
    scratch.write("newline-key.json", #"{"before":[],"bad\nkey":1}"#)
    scratch.write(
        "results-combining.json",
        #"{"schema":"difflab-bench/1","measurements":[{"engine":"hashmap","profile":"a"# + marks
            + #"","kind":"int","size":10,"allocator":"system","median":0.001}]}"#)
    let campaign =
        #"{"updaters":["background-diff"],"engine":"hashmap","seed":"1","runs":5,"#
        + #""settings":{"maxRequests":6,"maxItems":8,"maxEdits":4,"maxGap":0.2,"stepBudget":"#
    scratch.write("updaters-budget.json", #"{"schema":"difflab-updaters/1","campaign":"# + campaign + #"99999999999}},"updaters":[]}"#)
    // One version past a script's bound (10,001): refused by count, before any is read.
    let versions = Array(repeating: #"{"number":0,"sections":[]}"#, count: 10_002).joined(separator: ",")
    scratch.write(
        "updaters-versions.json",
        #"{"schema":"difflab-updaters/1","campaign":"# + campaign
            + #"20000}},"updaters":[{"name":"background-diff","checked":[],"findings":[{"property":"batch-valid","message":"","step":1,"seed":"1","failingRuns":1,"script":{"versions":["#
            + versions + #"],"requestTimes":[]},"schedule":[],"events":[]}]}]}"#)
    scratch.write("big-ints-old.json", "[18446744073709551615]")
    scratch.write("big-ints-new.json", "[18446744073709551614]")
    scratch.write("nfc.json", #"["\u00e9"]"#)
    scratch.write("nfd.json", #"["e\u0301"]"#)
    scratch.write("update-overflow.json", #"{"before":[9223372036854775807],"after":[9223372036854775807],"insertItems":[[0,0]]}"#)
    scratch.write(
        "regression-damaged.json",
        #"{"signature":"sanitizer/heckel/still-invalid/item-bounds","property":"sanitizer","subject":"heckel","message":"m","profile":"mixed","old":[],"new":[],"oldSections":[{"id":0,"items":[]}],"newSections":[{"id":0,"items":[]}],"corruptions":[[3,9223372036854775807],[6,-9223372036854775808,2]],"choices":[],"size":3}"#
    )
    scratch.write(
        "baseline-empty.json",
        #"{"schema":"difflab-gate-baseline/1","candidate":"x","machine":{"cpu":"?"},"toolchain":"?","cells":{}}"#)
    scratch.write(
        "baseline-wrong.json",
        #"{"schema":"difflab-gate-baseline/1","candidate":"x","machine":{"cpu":"?"},"toolchain":"?","cells":{"nope:nope:int:1":{"allocatedBytes":-1}}}"#
    )
    // Traces for `policy --trace`: 3,000 empty versions 2^40 ms (about 35 years) apart, and two
    // versions without times.
    let traceHeader = #"{"schema":"difflab-trace/1","source":"s","tool":"t","date":"d","ids":"i","contents":"c"}"#
    scratch.write("long-trace.jsonl", ([traceHeader] + (0..<3_000).map { #"{"items":[],"timestampMs":\#($0 << 40)}"# }).joined(separator: "\n"))
    scratch.write("untimed-trace.jsonl", [traceHeader, #"{"items":["a"]}"#, #"{"items":["b"]}"#].joined(separator: "\n"))
    // 20,000 items, then the same reversed: an edit distance of 40,000 for a Myers search.
    let ascending = (0..<20_000).map { "\"\($0)\"" }
    scratch.write(
        "reversed-trace.jsonl",
        [traceHeader, #"{"items":["# + ascending.joined(separator: ",") + "]}", #"{"items":["# + ascending.reversed().joined(separator: ",") + "]}"]
            .joined(separator: "\n"))
    scratch.write(
        "results-1e308.json",
        #"{"schema":"difflab-policy/1","createdAt":0,"machine":{},"toolchain":"t","commit":null,"crossoverSize":{"batch":null,"reloadFallback":null},"runs":[{"policy":"main","engine":"hashmap","listSize":1000,"allowsReloadingOnTooManyUpdates":false,"updateInterval":0.05,"frameRate":60,"frameWork":0.004,"duration":1,"maxItemCountToRunOnMain":10000,"coalescing":[0.05,0.025,0.25],"applyBaseCost":0.001,"batchCostPerChange":0.000002,"reloadCostPerItem":5e-8,"editsPerUpdate":20,"frames":60,"framesOverBudget":1,"hitchTimeRatio":1e308,"latencyMedian":0.01,"latencyP99":1.7976931348623157e308,"latencies":[0.01,1e308],"requested":10,"applied":10,"coalesced":0,"reloads":0,"dropped":0,"cpuUtilisation":0.5,"wallSeconds":1}]}"#
    )
}

/// Every output fixture a command must refuse as its output file, and leave as it was.
let hostileOutputs: [(target: String, untouched: [String])] = [
    ("@fifo", ["fifo"]),
    ("@link-missing", ["link-missing", "absent-target"]),
    ("@link-file", ["link-file", "victim.txt"]),
    ("@dir", ["dir"]),
    ("@regular.txt/out.json", ["regular.txt"]),
]

/// Contents a file reader must reject as data (65), whatever the command.
let hostileContents = ["@empty.json", "@garbage.json", "@badutf8.json", "@deep.json", "@huge-number.json"]

/// Values no numeric flag accepts.
let hostileNumbers = ["-1", "inf", "-inf", "nan", "1e999", "1e308", "9223372036854775808", "99999999999999999999", "0x10", "", "abc", "1.5.5"]

/// The catalogue: every command, flag and input file, with hostile values.
let catalogue: [HostileCase] = {
    var cases: [HostileCase] = []
    func add(
        _ arguments: [String], _ expected: Set<Int32>, untouched: [String] = [], message: String? = nil, output: String? = nil,
        environment: [String] = []
    ) {
        cases.append(
            HostileCase(arguments: arguments, expected: expected, untouched: untouched, message: message, output: output, environment: environment))
    }

    // Numeric flags: (the command's other arguments, the flag, whether 0 is also out of range, the error status).
    let tinyBench = ["bench", "--engines", "hashmap", "--profiles", "reverse", "--sizes", "100", "--kinds", "int", "--allocators", "system"]
    let numericFlags: [([String], String, Bool, Int32)] = [
        (["fuzz"], "--seconds", true, 64), (["fuzz"], "--cases", true, 64), (["fuzz"], "--max-size", true, 64),
        (["fuzz"], "--workers", true, 64), (["fuzz"], "--seed", false, 64), (["fuzz"], "--large-size", false, 64),
        (["fuzz"], "--large-every", true, 64), (["fuzz"], "--check-seconds", true, 64),
        (tinyBench.filter { $0 != "--sizes" && $0 != "100" }, "--sizes", true, 64), (tinyBench, "--budget", true, 64),
        (tinyBench, "--seed", false, 64),
        (["policy", "real-time", "--sizes", "100", "--policies", "main"], "--interval", true, 64),
        (["policy", "real-time", "--sizes", "100", "--policies", "main"], "--frame-rate", true, 64),
        (["policy", "real-time", "--sizes", "100", "--policies", "main"], "--frame-work", false, 64),
        (["policy", "--sizes", "100", "--policies", "main"], "--duration", true, 64),
        (["policy", "--policies", "main"], "--sizes", true, 64),
        (["policy", "--sizes", "100", "--policies", "main"], "--frame-rates", true, 64),
        (["policy", "--sizes", "100", "--policies", "main"], "--intervals", true, 64),
        (["policy", "--sizes", "100", "--policies", "main"], "--edits", true, 64),
        (["policy", "--sizes", "100", "--policies", "main"], "--repeats", true, 64),
        (["policy", "--sizes", "100", "--policies", "main"], "--latency-bound", true, 64),
        (["policy", "--sizes", "100", "--policies", "main"], "--reload-thresholds", false, 64),
        (["policy", "--sizes", "100", "--policies", "adaptive"], "--adaptive-thresholds", true, 64),
        (["policy", "--trace", "@untimed-trace.jsonl"], "--time-scale", true, 64),
        (["policy", "--trace", "@untimed-trace.jsonl"], "--median-interval", true, 64),
        (["policy", "--trace", "@untimed-trace.jsonl"], "--interval", true, 64),
        (["policy", "--trace", "@untimed-trace.jsonl", "--interval", "1"], "--max-gap", true, 64),
        (["measure", "--cells", "hashmap:reverse:int:100"], "--samples", true, 64),
        (["measure", "--cells", "hashmap:reverse:int:100"], "--seed", false, 64),
        (["gate", "--baseline", "@baseline-empty.json"], "--rounds", true, 1),
        (["gate", "--baseline", "@baseline-empty.json"], "--samples", true, 1),
        (["gate", "--baseline", "@baseline-empty.json"], "--seed", false, 1),
        (["diff", "@list.json", "@list2.json"], "--max-input-bytes", true, 64),
        (["arena", "--engines", "hashmap", "--no-bench"], "--fuzz-seconds", true, 64),
        (["arena", "--engines", "hashmap", "--no-bench"], "--workers", true, 64),
        (["arena", "--engines", "hashmap", "--no-bench"], "--seed", false, 64),
        (["updaters"], "--runs", true, 64), (["updaters"], "--seed", false, 64), (["updaters"], "--max-requests", true, 64),
        (["updaters"], "--max-items", false, 64), (["updaters"], "--max-edits", false, 64), (["updaters"], "--max-gap", false, 64),
        (["updaters"], "--step-budget", true, 64), (["updaters"], "--campaign-seconds", true, 64),
    ]
    for (prefix, flag, zeroIsBad, status) in numericFlags {
        var values = hostileNumbers
        if zeroIsBad { values.append("0") }
        if flag == "--seed" { values.removeAll { $0 == "9223372036854775808" } }
        for value in values { add(prefix + [flag, value], [status], message: flag) }
    }
    add(["diff", "@list.json", "@list2.json", "--sections", "-1,0"], [64], message: "--sections")
    for shard in hostileNumbers + ["1/9223372036854775808", "-1/2", "1/2/3", " 1/2", "1/65", "0/1", "2/1", "+1/2", "1/"] {
        add(tinyBench + ["--shard", shard], [64], message: "--shard")
    }
    add(["diff", "@list.json", "@list2.json", "--sections", "9223372036854775808,0"], [64], message: "--sections")
    add(["measure", "--cells", "hashmap:differencekit:int:999999999999"], [64])
    add(["measure", "--cells", "hashmap:differencekit:int:9223372036854775807"], [64])

    // Output files: refused before any work, and left as they were.
    let outputs: [([String], String, Int32)] = [
        (tinyBench + ["--budget", "0.01"], "--out", 73),
        (["policy", "--sizes", "100", "--policies", "main", "--duration", "0.2"], "--out", 73),
        (["fuzz", "--cases", "2"], "--write-seeds", 73),
        (["fuzz", "--cases", "2"], "--junit", 73),
        (["export", "@bench.json", "--format", "csv"], "--out", 73),
        (["merge", "@bench.json"], "--out", 73),
        // Checked before the first contestant is fuzzed.
        (["arena", "--engines", "hashmap", "--no-bench", "--fuzz-seconds", "1"], "--out", 73),
        (
            ["gate", "--baseline", "@baseline-empty.json", "--head-binary", "@bin", "--cells", "hashmap:reverse:int:100", "--no-instructions"],
            "--junit", 1
        ),
        // Checked before the catalogue is read or anything is built.
        (["mutate", "--catalogue", "@no-catalogue"], "--out", 73),
        // Checked before the first updater is checked.
        (["updaters", "--runs", "5"], "--out", 73),
        (
            ["gate", "--baseline", "@baseline-empty.json", "--head-binary", "@bin", "--cells", "hashmap:reverse:int:100", "--no-instructions"],
            "--out", 1
        ),
        (
            ["gate", "--baseline", "@baseline-empty.json", "--head-binary", "@bin", "--cells", "hashmap:reverse:int:100", "--no-instructions"],
            "--summary", 1
        ),
        (["gate", "--head-binary", "@bin", "--cells", "hashmap:reverse:int:100", "--no-instructions"], "--save-baseline", 1),
    ]
    for (prefix, flag, status) in outputs {
        for (target, untouched) in hostileOutputs {
            // A folder is a fine place for seeds; every other hostile target is refused.
            if flag == "--write-seeds" && target == "@dir" { continue }
            add(prefix + [flag, target], [status], untouched: untouched, message: flag)
        }
    }
    for (target, untouched) in hostileOutputs where target != "@dir" {
        add(["report", "@results-1e308.json", "--out", target], [73], untouched: untouched)
    }

    // Input files, in every command that reads one.
    let readers: [(prefix: [String], suffix: [String], missing: Int32, data: Int32)] = [
        (["diff"], ["@list.json"], 66, 65), (["diff", "@list.json"], [], 66, 65), (["validate"], [], 66, 65),
        (["stages"], ["@list.json"], 66, 65), (["replay"], [], 66, 65), (["coverage"], [], 66, 65), (["report"], ["--out", "@dir/report"], 66, 65),
        (["gate", "--baseline"], ["--head-binary", "@bin", "--no-instructions", "--cells", "hashmap:reverse:int:100"], 1, 1),
        (["gate", "--baseline", "@baseline-empty.json", "--thresholds"], [], 1, 1),
        (["trace"], [], 66, 65), (["trace", "lines"], ["--out", "@dir/t.jsonl"], 66, 65), (["bench", "--trace"], ["--out", "@dir/b.json"], 66, 65),
        (["fuzz", "--seeds-from-trace"], ["--cases", "1", "--corpus", "@dir/c"], 66, 65),
        (["policy", "--trace"], ["--interval", "0.05", "--out", "@dir/p.json"], 66, 65),
    ]
    for reader in readers {
        add(reader.prefix + ["@does-not-exist.json"] + reader.suffix, [reader.missing], message: "does-not-exist.json")
        for content in hostileContents {
            add(reader.prefix + [content] + reader.suffix, [reader.data], message: String(content.dropFirst()))
        }
        add(["--max-input-bytes", "1000"] + reader.prefix + ["@big.json"] + reader.suffix, [reader.data], message: "--max-input-bytes")
        if reader.prefix != ["replay"] { add(reader.prefix + ["@dir"] + reader.suffix, [reader.missing], message: "dir") }
    }
    add(["diff", "/dev/zero", "@list.json", "--max-input-bytes", "100000"], [65], message: "input limit")
    add(["replay", "/dev/zero", "--max-input-bytes", "100000"], [65], message: "input limit")

    // The issue's examples.
    add(["validate", "@update-overflow.json"], [1, 65])
    add(["replay", "@regression-damaged.json"], [65])
    add(["replay", "@updaters-budget.json"], [65], message: "campaign.settings.stepBudget")
    add(["replay", "@updaters-versions.json"], [65], message: "updaters[0].findings[0].script.versions is 10002 elements")
    add(["replay", "@repo/Corpus/examples/updater-findings.json"], [1], output: "reproduced: batch-valid at step")
    add(["updaters", "--runs", "50", "--updaters", "background-diff,background-diff"], [1], output: "1 updaters × 50 runs")
    add(["updaters", "--runs", "50", "--isolation", "spawn"], [1], output: "UNSAFE")
    add(["updaters", "--updaters", "nope"], [64], message: "unknown updater 'nope'")
    add(["updaters", "--engine", "../hashmap"], [64], message: "--engine")
    add(["replay", "@emptydir"], [1])
    add(["report", "@results-1e308.json", "--out", "@dir/report"], [0, 65])
    add(["gate", "--baseline", "@baseline-empty.json", "--head-binary", "@bin", "--cells", "hashmap:reverse:int:100", "--no-instructions"], [1])
    add(["gate", "--baseline", "@baseline-wrong.json", "--head-binary", "@bin", "--cells", "hashmap:reverse:int:100", "--no-instructions"], [1])
    add(["policy", "real-time", "--frame-rate", "inf"], [64], message: "--frame-rate")
    add(["policy", "real-time", "--frame-rate", "0.0001"], [64], message: "--frame-rate")
    add(["policy", "--duration", "inf"], [64], message: "--duration")
    add(["policy", "real-time", "--frame-work", "inf"], [64], message: "--frame-work")
    add(["policy", "real-time", "--interval", "1e300"], [64], message: "--interval")
    add(["bench", "--budget", "inf"], [64], message: "--budget")
    // A trace's stream, bounded: too long, too many frames, no times to scale.
    add(["policy", "--trace", "@long-trace.jsonl", "--max-gap", "3600", "--out", "@dir/p.json"], [64], message: "the stream would last")
    add(["policy", "--trace", "@long-trace.jsonl", "--max-gap", "100", "--out", "@dir/p.json"], [64], message: "simulated frames and updates")
    add(
        [
            "policy", "--trace", "@long-trace.jsonl", "--time-scale", "1e9", "--max-gap", "0.001", "--policies", "main", "--moves", "offsets",
            "--reload-thresholds", "none", "--frame-rates", "60", "--repeats", "1", "--out", "@dir/p.json",
        ], [0], output: "recommendations written")
    add(["policy", "--trace", "@untimed-trace.jsonl", "--out", "@dir/p.json"], [64], message: "has no times")
    add(["policy", "--trace", "@reversed-trace.jsonl", "--interval", "1", "--engine", "myers", "--out", "@dir/p.json"], [64], message: "per call")
    add(
        ["policy", "--trace", "@reversed-trace.jsonl", "--interval", "1", "--background-engine", "stdlib", "--out", "@dir/p.json"], [64],
        message: "stdlib")
    add(["bench", "--sizes", "1000000000000"], [64], message: "--sizes")
    add(["fuzz", "--seconds", "1e-300"], [64], message: "--seconds")
    add(["help", "measure"], [0], output: "difflab measure")
    // Found by the review sweep after the first round of fixes.
    add(["bench", "--sizes", "1,,2"], [64], message: "--sizes")
    add(["fuzz", "--engines", "heckel,,hashmap"], [64], message: "--engines")
    add(["fuzz", "--cases", "+3"], [64], message: "--cases")
    add(["fuzz", "--elements", "integers,pointers"], [64], message: "element kind")
    add(["fuzz", "--elements", "strings,,objects"], [64], message: "--elements")
    add(
        [
            "--max-input-bytes", "1000000", "gate", "--base-binary", "@flood.sh", "--head-binary", "@bin", "--cells", "hashmap:reverse:int:100",
            "--no-instructions", "--rounds", "3", "--samples", "1", "--out", "@gate.json", "--summary", "@summary.md",
        ],
        [1], message: "wrote more than")
    add(["fuzz", "--cases", "1", "--engines", "hashmap,hashmap", "--properties", "raw-sound,raw-sound"], [0], output: "1 engines × 1 properties")
    add(["replay", "@fifo-folder"], [66], message: "not a regular file")
    // Crash isolation: the way is chosen by name, and a spawned worker reads its job as hostile input.
    add(["fuzz", "--cases", "1", "--isolation", "vfork"], [64], message: "--isolation")
    add(["fuzz", "--cases", "1", "--isolation", ""], [64], message: "--isolation")
    add(["fuzz", "--cases", "20", "--isolation", "spawn"], [0], output: "6 engines × 7 properties, seed 1: 0 failures")
    add(["fuzz", "--cases", "20", "--isolation", "none"], [0], output: "6 engines × 7 properties, seed 1: 0 failures")
    let refusedJobs = [
        ("@fifo", "not a regular file"), ("@dir", "job file is unreadable"), ("@link-missing", "job file is unreadable"),
        ("@garbage.json", "not JSON"), ("@deep.json", "not JSON"), ("@object.json", "kind"), ("@job-subject.json", "subject is 99"),
        ("@job-choice.json", "choices[0]"), ("@job-slots.json", "shared slots"), ("@job-skipping.json", "skipping[0]"),
        ("@job-property.json", "property is 7"), ("@job-size.json", "size is 5000"), ("@job-negative.json", "subject"),
        ("@job-seconds.json", "seconds"), ("@job-choices-many.json", "choices"), ("@job-link.json", "symbolic link"),
        ("/dev/zero", "not a regular file"),
    ]
    for (job, message) in refusedJobs {
        let links = ["@link-missing": "link-missing", "@job-link.json": "job-link.json"]
        add(["fuzz", "--cases", "1", "--isolation-job", job], [3], untouched: links[job].map { [$0] } ?? [], message: message)
    }
    // The worker's replay of a valid job (one check, passed: exit 0), to show the refusals above are the job's.
    add(["fuzz", "--cases", "1", "--isolation-job", "@job-valid.json"], [0])
    add(["bench", "--isolation-job", "@job-subject.json"], [64], message: "--isolation-job")
    // Found by a review: `trace folder` opened a FIFO named *.json and waited for a writer forever.
    add(["trace", "folder", "@fifo-folder", "--out", "@t.jsonl"], [66], message: "not a regular file")
    // Found by a review: `bench --trace` made an unbounded myers call (261 s on a 200,000-item
    // reversed pair, whatever --max-call said). Edit-distance engines are bounded before the call.
    add(
        ["bench", "--trace", "@reversed-trace.jsonl", "--engines", "myers", "--max-call", "1", "--budget", "0.01", "--out", "@b.json"], [0],
        output: "(lists × edit distance)")
    add(["diff", "@combining.json", "@combining.json", "--strings", "canonical"], [65], message: "UAX #15")
    add(["diff", "@combining.json", "@combining.json"], [0], output: #""inserts":[]"#)
    add(["report", "@results-combining.json", "--out", "@dir/report"], [65], message: "UAX #15")
    add(["validate", "@newline-key.json"], [65], message: "\\u{a}")
    add(["fuzz", "--cases", "3", "--write-seeds", "@seeds-with-fifo"], [73], untouched: ["seeds-with-fifo/seed-1.bin", "seeds-with-fifo"])
    for (target, untouched) in hostileOutputs where target != "@dir" && target != "@regular.txt/out.json" {
        add(
            ["gate", "--baseline", "@baseline-empty.json", "--head-binary", "@bin", "--cells", "hashmap:reverse:int:100", "--no-instructions"],
            [1], untouched: untouched, message: "GITHUB_STEP_SUMMARY", environment: ["GITHUB_STEP_SUMMARY=" + target])
    }
    add(["diff", "@big-ints-old.json", "@big-ints-new.json"], [0], output: #""inserts":[0],"deletes":[0]"#)

    // Out-of-process engines (issue 11): bad options are usage errors before any engine starts;
    // an engine that does not start is an error; one that crashes, hangs or answers garbage is a
    // fuzz failure with its input, never a pass, and never wedges the run.
    let engine = ["--engine-command", "@crash-engine.sh"]
    for value in hostileNumbers + ["0"] {
        add(engine + ["--engine-timeout", value, "fuzz", "--cases", "1"], [64], message: "--engine-timeout")
    }
    for name in ["", "UPPER", "a:b", "-a", "hash-floor", "validate", String(repeating: "a", count: 65), "é"] {
        add(engine + ["--engine-name", name, "fuzz", "--cases", "1"], [64], message: "engine name")
    }
    add(["--engine-command", "", "fuzz", "--cases", "1"], [64], message: "--engine-command")
    add(["fuzz", "--cases", "1", "--engine-command"], [64], message: "--engine-command")
    add(["--engine-name", "mine", "fuzz", "--cases", "1"], [64], message: "--engine-name")
    add(engine + ["--engine-name", "a", "--engine-name", "b", "fuzz", "--cases", "1"], [64], message: "--engine-name")
    add(engine + ["--engine-name", "heckel", "fuzz", "--cases", "1"], [64], message: "heckel")
    add(["--engine-command", "@no-hello-engine.sh", "fuzz", "--cases", "1"], [1], message: "did not start")
    add(["--engine-command", "exit 3", "fuzz", "--cases", "1"], [1], message: "did not start")
    add(engine + ["fuzz", "--engines", "hostile", "--seconds", "2", "--corpus", "@engine-corpus"], [1], output: "engine-failed/hostile/crashed")
    add(
        [
            "--engine-command", "@garbage-engine.sh", "--engine-timeout", "1", "fuzz", "--engines", "hostile", "--seconds", "2", "--corpus",
            "@engine-corpus",
        ], [1],
        output: "engine-failed/hostile/bad-answer")
    add(
        [
            "--engine-command", "@hang-engine.sh", "--engine-timeout", "0.2", "fuzz", "--engines", "hostile", "--seconds", "2", "--corpus",
            "@engine-corpus",
        ],
        [1], output: "engine-failed/hostile/timed-out")
    add(
        ["--engine-command", "@hang-engine.sh", "--engine-timeout", "0.2", "diff", "@list.json", "@list2.json", "--engine", "hostile"], [1],
        message: "timed-out")
    // A bench whose engine failed writes its results and exits 1, unless --allow-skips.
    add(
        engine + [
            "bench", "--engines", "hostile", "--profiles", "reverse", "--sizes", "100", "--kinds", "int", "--allocators", "system",
            "--budget", "0.01", "--out", "@engine-bench.json",
        ], [1], output: "hostile")
    add(
        engine + [
            "bench", "--engines", "hostile", "--profiles", "reverse", "--sizes", "100", "--kinds", "int", "--allocators", "system",
            "--budget", "0.01", "--allow-skips", "--out", "@engine-bench.json",
        ], [0], output: "hostile")
    // An honest engine passes: `fuzz` stays in one process with an engine process of its own (a
    // forked campaign once took the engine for dead at its first request: "exited with status 0
    // after its hello").
    add(
        [
            "--engine-command", "python3 \(repositoryRoot)/Examples/difflib-engine/difflib_engine.py", "fuzz", "--engines", "difflib",
            "--cases", "30", "--corpus", "@engine-corpus",
        ], [0], output: "0 failures")

    add(["diff", "@nfc.json", "@nfd.json"], [0], output: #""inserts":[0],"deletes":[0]"#)
    // The gate reads the repository's thresholds file, so each gate case fails for its own reason.
    for index in cases.indices where cases[index].arguments.first == "gate" && !cases[index].arguments.contains("--thresholds") {
        cases[index].arguments += ["--thresholds", "@repo/Corpus/gate/thresholds.json"]
    }
    return cases
}()

/// The repository's root, from this file's path.
let repositoryRoot: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path
}()

@Suite("Hostile input: every command, flag and file")
struct HostileInputTests {
    @Test(arguments: catalogue)
    func hostileRun(_ hostile: HostileCase) throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        makeFixtures(scratch)
        let arguments = hostile.arguments.map { argument in
            if argument == "@bin" { return Binary.path }
            if argument.hasPrefix("@repo/") { return repositoryRoot + argument.dropFirst("@repo".count) }
            return argument.hasPrefix("@") ? scratch.file(String(argument.dropFirst())) : argument
        }
        let before = hostile.untouched.map { PathState(scratch.file($0)) }
        let environment = hostile.environment.map { entry in
            guard let equals = entry.firstIndex(of: "="), entry[entry.index(after: equals)...].hasPrefix("@") else { return entry }
            return String(entry[...equals]) + scratch.file(String(entry[entry.index(equals, offsetBy: 2)...]))
        }
        let outcome = runDifflab(arguments, in: scratch.path, environment: environment)

        #expect(!outcome.hung, "ran past the time bound: \(outcome)")
        #expect(outcome.signal == nil, "died by signal: \(outcome)")
        let status = try #require(outcome.status, "\(outcome)")
        #expect(hostile.expected.contains(status), "exit \(status), expected \(hostile.expected.sorted()): \(outcome)")
        if errorStatuses.contains(status) || (status == 1 && hostile.expected == [1] && hostile.arguments.first == "gate") {
            #expect(outcome.errorLines.count == 1, "expected one error line: \(outcome)")
            if let line = outcome.errorLines.first {
                #expect(line.count < 600, "error line too long: \(line)")
                if let message = hostile.message { #expect(line.contains(message), "error line lacks '\(message)': \(line)") }
            }
        }
        if let output = hostile.output { #expect(outcome.stdout.contains(output), "stdout lacks \(output): \(outcome.stdout)") }
        for (name, state) in zip(hostile.untouched, before) {
            #expect(PathState(scratch.file(name)) == state, "\(name) changed: was \(state), now \(PathState(scratch.file(name)))")
        }
        // No temporary file left beside an output.
        let strays = try #require(FileSystem.directoryEntries(scratch.path), "the scratch folder cannot be listed").filter { $0.contains(".tmp-") }
        #expect(strays.isEmpty, "temporary files left: \(strays)")
    }
}
