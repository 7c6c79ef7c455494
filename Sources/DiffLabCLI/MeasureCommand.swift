import DiffLabBench
import DiffLabCore
import DiffLabJSON
import DiffLabResults

/// `difflab measure`: the worker side of the regression gate.
///
/// Its command line and output are a protocol between builds (`difflab-measure/1`): the gate runs
/// the *baseline* build's `difflab measure` and the candidate's side by side, so this command must
/// keep accepting these options and printing these fields for as long as the protocol name stays.
/// It is not listed in `difflab --help`; people use `difflab gate`.
enum MeasureCommand: DeclaredCommand {
    /// The protocol name printed by `difflab measure --protocol`.
    static let protocolName = MeasureResponse.protocolName

    /// The allowed range of `--samples`: 1 to 10,000 samples per cell.
    static let allowedSamples = 1...10_000

    struct Options: DeclaredOptions {
        let protocolFlag = Flag("protocol", help: "print the protocol name (\(MeasureCommand.protocolName)) and exit")
        let cells = Option<[BenchCell]>(
            "cells", "LIST", help: "the cells to measure (subject:profile:kind:size)", constraint: "a comma-separated list"
        ) { text throws(CommandError) in
            try parseList(text, "--cells") { text throws(CommandError) in
                do throws(BenchCellError) { return try BenchCell(parsing: text, engines: EngineRegistry.current.benchSubjects) } catch {
                    throw .usage(error.description)
                }
            }
        }
        let samples = Option.integer("samples", in: MeasureCommand.allowedSamples, default: 10, help: "samples per cell")
        let seed = Option.seed(default: 42, help: "dataset seed")
        let instructions = Flag(
            "instructions",
            help: "one warm-up call, then one call inside difflabMeasuredCall, for valgrind --tool=callgrind "
                + "--toggle-collect=*difflabMeasuredCall*")
        init() {}
    }

    static let name = "measure"
    static let abstract = "the regression gate's worker"
    static let mainForm: UsageForm<Options>? = UsageForm(required: [\.protocolFlag])
    static let otherForms = [UsageForm<Options>(required: [\.cells], optional: [\.samples, \.seed, \.instructions])]
    static let discussion = """
        The gate's worker (protocol \(protocolName)). Measures each cell
        (subject:profile:kind:size, e.g. hashmap:differencekit:int:10000; subject an engine,
        hash-floor, or validate for the batch-update validator; size 1 to 10000000) on its
        seeded dataset and prints one JSON object: {"protocol", "results": [{"cell", "samples" (seconds per call),
        "callsPerSample", "allocatedBytes", "allocationRequests"}]}. Allocation figures need jemalloc
        (LD_PRELOAD; DYLD_INSERT_LIBRARIES on macOS).
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        if parsed[\.protocolFlag] {
            console.out(protocolName + "\n")
            return .success
        }
        guard let cells = parsed[\.cells] else { throw .usage("measure needs --cells") }
        let samples = parsed.required(\.samples)
        let seed = parsed.required(\.seed)
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
            if parsed[\.instructions] {
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
