import DiffLabCore
import DiffLabBench
import DiffLabJSON
import DiffLabResults

/// `difflab measure`: the worker side of the regression gate.
///
/// Its command line and output are a protocol between builds (`difflab-measure/1`): the gate runs
/// the *baseline* build's `difflab measure` and the candidate's side by side, so this command must
/// keep accepting these options and printing these fields for as long as the protocol name stays.
/// It is not listed in `difflab --help`; people use `difflab gate`.
enum MeasureCommand {
    /// The protocol name printed by `difflab measure --protocol`.
    static let protocolName = MeasureResponse.protocolName

    /// The allowed range of `--samples`: 1 to 10,000 samples per cell.
    static let allowedSamples = 1...10_000

    static let help = """
        USAGE: difflab measure --protocol
               difflab measure --cells LIST [--samples N] [--seed S] [--instructions]

        The gate's worker (protocol \(protocolName)). Measures each cell
        (subject:profile:kind:size, e.g. hashmap:differencekit:int:10000; subject an engine,
        hash-floor, or validate for the batch-update validator; size 1 to 10000000) on its
        seeded dataset and prints one JSON object: {"protocol", "results": [{"cell", "samples" (seconds per call),
        "callsPerSample", "allocatedBytes", "allocationRequests"}]}. Allocation figures need jemalloc
        (LD_PRELOAD). With --instructions each cell gets one warm-up call and then one call inside
        difflabMeasuredCall, for valgrind --tool=callgrind --toggle-collect=*difflabMeasuredCall*.
        --samples N takes 1 to 10000 samples per cell (default 10); --seed S, 0 to 2^64 - 1 (default 42).
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> ExitStatus {
        let parsed = try OptionSpec(valued: ["cells", "samples", "seed"], flags: ["protocol", "instructions"]).parse(arguments)
        if parsed.flag("help") {
            console.out(help + "\n")
            return .success
        }
        if parsed.flag("protocol") {
            console.out(protocolName + "\n")
            return .success
        }
        guard parsed.positionals.isEmpty else { throw .usage("measure takes no files") }
        guard let cellList = parsed.value("cells") else { throw .usage("measure needs --cells") }
        let cells = try parseList(cellList, "--cells") { text throws(CommandError) in
            do throws(BenchCellError) { return try BenchCell(parsing: text, engines: EngineRegistry.current.benchSubjects) } catch {
                throw .usage(error.description)
            }
        }
        let samples = try parsed.value("samples").map { text throws(CommandError) in
            try parseInteger(text, "--samples", in: allowedSamples)
        } ?? 10
        let seed = try parsed.value("seed").map { text throws(CommandError) in try parseSeed(text) } ?? 42
        var response = MeasureResponse(results: [])
        for cell in cells {
            let call: BenchCall
            do throws(BenchCellError) { call = try cell.makeCall(seed: seed, engines: EngineRegistry.current.benchSubjects) } catch {
                throw .usage(error.description)
            }
            // One checked call first: an engine that fails is an error, never a measurement.
            do throws(EngineFailure) { _ = try call.run() } catch {
                throw CommandError(.failure, "\(cell): the engine failed: \(error)")
            }
            var record = MeasureCellResult(cell: cell.description)
            if parsed.flag("instructions") {
                difflabMeasuredCall { _ = try? call.run() }
            } else {
                let measurement = measure(budget: 0, minSamples: samples, maxSamples: samples) { _ = try? call.run() }
                record.samples = measurement.samples
                record.callsPerSample = measurement.callsPerSample
                record.allocatedBytes = measurement.allocatedBytes.map { Int(clamping: $0) }
                record.allocationRequests = measurement.allocationRequests.map { Int(clamping: $0) }
            }
            response.results.append(record)
        }
        console.out(response.json.serialized() + "\n")
        return .success
    }
}
