import DiffLabBench
import DiffLabCore
import DiffLabEngines
import DiffLabJSON

#if canImport(Glibc)
import Glibc
#endif

/// `difflab bench`.
enum BenchCommand {
    static let help = """
        USAGE: difflab bench [--quick] [--engines a,b] [--profiles p,q] [--sizes n,m] [--kinds k,l]
                             [--allocators system,jemalloc] [--budget SECONDS] [--out FILE]

        Times the engines on generated datasets and writes one JSON results file. Every run also
        measures, in the same process and on the same data, the stdlib reference and a hash
        floor (one open-addressing table built over the old ids and probed with the new ones),
        and reports each engine as a ratio to both. Under jemalloc it also records the bytes and
        allocation requests of one call (thread.allocatedp; arena nrequests after a tcache flush).

        OPTIONS
          --quick            a few minutes: sizes 1k and 10k (differencekit also 100k), short budgets
          --engines LIST     \(EngineKind.allNames) (default all)
          --profiles LIST    \(DatasetProfile.allCases.map(\.rawValue).joined(separator: ", "))
          --sizes LIST       e.g. 1000,10000 (default 1000,10000,100000,1000000)
          --kinds LIST       int, model, object (default: int; full runs add model and object on
                             differencekit and small-edit)
          --allocators LIST  system, jemalloc (default both, side by side: one worker process each,
                             jemalloc via LD_PRELOAD of libjemalloc.so.2)
          --budget SECONDS   sampling time per measurement
          --seed S           dataset seed (default 42)
          --out FILE         results file (default results/bench-<time>.json), written atomically
          -h, --help         show this help

        Measurements that would take longer than the call limit (projected from the previous size)
        are skipped and say so in the results.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> ExitStatus {
        let parsed = try OptionSpec(
            valued: ["engines", "profiles", "sizes", "kinds", "allocators", "budget", "seed", "out", "worker-allocator", "worker-out"],
            flags: ["quick"]
        ).parse(arguments)
        if parsed.flag("help") {
            console.out(help + "\n")
            return .success
        }
        guard parsed.positionals.isEmpty else { throw .usage("bench takes no files") }
        var options = parsed.flag("quick") ? BenchOptions.quick : BenchOptions.full
        if let text = parsed.value("engines") {
            options.engines = try parseList(text, "--engines") { name throws(CommandError) in try parseEngine(name) }
        }
        if let text = parsed.value("profiles") {
            options.profiles = try parseNames(text, "--profiles", "profile")
        }
        if let text = parsed.value("sizes") {
            options.sizes = try parseList(text, "--sizes") { name throws(CommandError) in try parsePositive(name, "--sizes") }.sorted()
        }
        if let text = parsed.value("kinds") {
            options.kinds = try parseNames(text, "--kinds", "element kind")
        }
        if let text = parsed.value("budget") {
            guard let budget = Double(text), budget > 0 else { throw .usage("--budget expects a positive number of seconds") }
            options.budget = budget
        }
        if let text = parsed.value("seed") {
            guard let seed = UInt64(text) else { throw .usage("--seed expects a non-negative integer") }
            options.seed = seed
        }
        let current = JemallocStats.current == nil ? "system" : "jemalloc"

        // A worker: measure under this process's allocator and hand the records back.
        if let workerOut = parsed.value("worker-out") {
            let records = runBench(options, allocator: current) { done, total, label in progressBar(console, done, total, label) }
            console.err("\n")
            try writeFileAtomically(JSONValue.array(records.map(\.json)).serialized() + "\n", to: workerOut)
            return .success
        }

        var allocators = ["jemalloc", "system"]
        if let text = parsed.value("allocators") {
            allocators = try parseList(text, "--allocators") { name throws(CommandError) in
                guard name == "system" || name == "jemalloc" else { throw .usage("unknown allocator '\(name)' (expected system or jemalloc)") }
                return name
            }
        }
        let jemallocPath = jemallocLibraryPath()
        if allocators.contains("jemalloc") && jemallocPath == nil && current != "jemalloc" {
            console.err("difflab: libjemalloc.so.2 not found (apt-get install -y libjemalloc-dev); measuring the system allocator only\n")
            allocators.removeAll { $0 == "jemalloc" }
            if allocators.isEmpty { allocators = ["system"] }
        }

        let started = monotonicNow()
        var measurements: [JSONValue] = []
        var allocatorInfo: [JSONValue] = []
        for allocator in allocators {
            console.err("bench: \(allocator) allocator\n")
            if allocator == current && allocators.count == 1 {
                let records = runBench(options, allocator: current) { done, total, label in progressBar(console, done, total, label) }
                console.err("\n")
                measurements += records.map(\.json)
            } else {
                let file = "/tmp/difflab-bench-\(getpid())-\(allocator).json"
                var environment: [String: String?] = ["LD_PRELOAD": nil]
                if allocator == "jemalloc" { environment["LD_PRELOAD"] = jemallocPath }
                let status = try runSelf(["bench"] + Array(arguments) + ["--worker-out", file], environment: environment)
                guard status == 0 else { throw CommandError(.failure, "the \(allocator) worker failed (status \(status))") }
                let text = try readJSON(file)
                unlink(file)
                measurements += text.arrayValue ?? []
            }
            var info = JSONObject([("name", .string(allocator))])
            if allocator == "jemalloc" { info["library"] = jemallocPath.map { .string($0) } ?? .null }
            allocatorInfo.append(.object(info))
        }
        measurements = addRatios(measurements)
        let rows = measurements.compactMap(BenchRow.init)
        let primary = allocators.first ?? current
        let targets = benchTargets(rows, allocator: primary)

        let results = JSONValue.object(
            JSONObject([
                ("schema", .string(benchSchema)),
                ("createdAt", .integer(Int(time(nil)))),
                ("seconds", JSONValue(monotonicNow() - started)),
                ("machine", .object(JSONObject(machineJSONFields().map { ($0.0, .string($0.1)) }))),
                ("toolchain", .string(commandOutput("swift --version") ?? "unknown")),
                ("commit", commandOutput("git rev-parse HEAD").map { .string($0) } ?? .null),
                ("dirty", .bool(commandOutput("git status --porcelain --untracked-files=no | head -1") != nil)),
                (
                    "options",
                    .object(
                        JSONObject([
                            ("quick", .bool(parsed.flag("quick"))),
                            ("engines", .array(options.engines.map { .string($0.rawValue) })),
                            ("profiles", .array(options.profiles.map { .string($0.rawValue) })),
                            ("sizes", .array(options.sizes.map { .integer($0) })),
                            ("kinds", .array(options.kinds.map { .string($0.rawValue) })),
                            ("budgetSeconds", JSONValue(options.budget)), ("maxCallSeconds", JSONValue(options.maxCallSeconds)),
                            ("seed", .string(String(options.seed))), ("moves", .string("offsets")),
                        ]))
                ),
                ("allocators", .array(allocatorInfo)),
                ("measurements", .array(measurements)),
                ("scaling", .array(scalingFits(rows))),
                ("targets", .array(targets.map(\.json))),
            ]))
        let out = parsed.value("out") ?? "results/bench-\(timestamp()).json"
        try writeFileAtomically(results.serialized() + "\n", to: out)

        console.out(benchTable(rows) + "\n\n")
        if !targets.isEmpty {
            console.out("Targets (\(primary)):\n")
            for t in targets {
                let verdict = t.met.map { $0 ? "met" : "MISSED" } ?? "n/a"
                console.out("  \(t.name): \(t.value.map(round2) ?? "–") (goal \(t.goal)) \(verdict)\(t.note.isEmpty ? "" : " — \(t.note)")\n")
            }
        }
        console.out("results: \(out)\n")
        return .success
    }
}

/// `YYYYMMDD-HHMMSS` in UTC, for file names.
func timestamp() -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
}
