import DiffLabGate
import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults

/// The gate's stored baselines: read (`--baseline`: a `--save-baseline` file, or a `difflab
/// bench` results file, merged or not) and written (`--save-baseline`).
enum GateBaselineStorage {
    /// Reads the stored baseline at `path` and checks it has every one of `cells`.
    ///
    /// - Throws: exit 66 when unreadable, 65 for malformed JSON, 1 for a baseline that is
    ///   malformed or lacks a cell (the gate fails closed).
    static func load(_ path: String, cells: [String], seed: UInt64) throws(CommandError) -> StoredBaseline {
        let document = try readJSON(path)
        do throws(GateError) {
            let baseline: StoredBaseline
            // A bench results file (a merged one included) serves as a baseline too.
            if document["schema"]?.stringValue == BenchResults.schema {
                let bench: BenchResults
                do throws(ResultsError) { bench = try BenchResults(json: document, source: path) } catch {
                    throw .badBaseline(source: path, field: "the document", expected: error.description)
                }
                baseline = try StoredBaseline(bench: bench, seed: seed)
            } else {
                baseline = try StoredBaseline.read(document, source: path)
            }
            try baseline.requireCells(cells)
            return baseline
        } catch {
            throw CommandError(.failure, error.description)
        }
    }

    /// Writes the candidate's deterministic metrics of `cells` to `file` as a stored baseline, but
    /// only one that would be accepted when read back: a cell with no metric measured (no
    /// jemalloc and no valgrind, say) would gate nothing.
    static func save(
        _ file: OutputFile, cells: [String], head: GateBuilds.Build, measurements: GateMeasurements, console: Console
    ) throws(CommandError) {
        let stored = cells.map { cell in
            (cell, StoredBaseline.metrics.reduce(into: [GateMetric: Double]()) { $0[$1] = measurements.deterministic(head.label, cell, $1).0 })
        }
        let document = StoredBaseline(
            measured: stored, candidate: head.description, createdAt: secondsSince1970(),
            machine: machineJSONFields().map { DisplayField(name: $0.0, value: $0.1) }, toolchain: commandOutput("swift --version") ?? "unknown"
        ).json
        do throws(GateError) { _ = try StoredBaseline.read(document, source: file.path) } catch {
            throw CommandError(.failure, "refusing to store a baseline that could not gate: \(error)")
        }
        try asCantCreate { () throws(OutputFileError) in try file.write(document.serialized() + "\n") }
        console.err("gate: stored baseline \(file.path)\n")
    }

    /// Whether `stored` was measured on this machine's CPU model with this toolchain (instruction
    /// counts are comparable only then).
    static func sameMachine(_ stored: StoredBaseline) -> Bool {
        stored.isComparable(cpu: machineJSONFields().first { $0.0 == "cpu" }?.1 ?? "", toolchain: commandOutput("swift --version") ?? "")
    }
}
