import DiffLabJSON

/// What the gate asked a `difflab measure` worker for: the answer must hold these cells, in
/// order, each with exactly `samples` samples (`nil`: any number, for `--instructions` runs).
package struct MeasureRequest: Sendable, Equatable {
    package var cells: [String]
    package var samples: Int?

    package init(cells: [String], samples: Int?) {
        self.cells = cells
        self.samples = samples
    }
}

/// One cell of a `difflab measure` answer, as the worker reported it and the gate reads it.
package struct MeasureCellResult: ResultsRecord, Equatable {
    /// The cell name (`subject:profile:kind:size`), as requested.
    package var cell: String
    /// Seconds per call, one per sample, each in ``FieldRange/seconds``; `nil` for an
    /// `--instructions` run, which times nothing.
    package var samples: [Double]?
    /// Calls timed together as one sample, in ``FieldRange/callsPerSample``.
    package var callsPerSample: Int?
    /// Bytes one call allocated (under jemalloc), 0 to 2^53.
    package var allocatedBytes: Int?
    /// Allocation requests of one call (under jemalloc), 0 to 2^53.
    package var allocationRequests: Int?

    package init(cell: String, samples: [Double]? = nil, callsPerSample: Int? = nil, allocatedBytes: Int? = nil, allocationRequests: Int? = nil) {
        self.cell = cell
        self.samples = samples
        self.callsPerSample = callsPerSample
        self.allocatedBytes = allocatedBytes
        self.allocationRequests = allocationRequests
    }

    package static let blank = MeasureCellResult(cell: "")

    /// The declaration table: just `cell` for an instructions run; otherwise the samples, calls
    /// per sample and both allocation figures (`null` without jemalloc). Unknown members are
    /// ignored.
    package static let fields: [RecordField<MeasureCellResult>] = [
        .required("cell", \.cell, .string, "the cell name, as requested"),
        .optional("samples", \.samples, .array(FieldType.seconds.strict("a number of seconds from 0 to 86,400")), "seconds per call, one per sample"),
        .optional(
            "callsPerSample", \.callsPerSample, FieldType.int(.callsPerSample).strict("null or an integer from 1 to 1,000,000,000"),
            "calls timed together as one sample"),
        .optional("allocatedBytes", \.allocatedBytes, count, absent: .nullWhen(\.isTimed), "bytes one call allocated (jemalloc)"),
        .optional("allocationRequests", \.allocationRequests, count, absent: .nullWhen(\.isTimed), "allocation requests of one call (jemalloc)"),
    ]
    private static let count = FieldType.int(.count).strict("null or an integer from 0 to 2^53")

    private var isTimed: Bool { samples != nil }
}

/// The protocols a `difflab measure` answer may name (its `protocol` member).
package enum MeasureProtocol: String, CaseIterable, Sendable {
    /// `difflab-measure/1`, the only one so far.
    case v1 = "difflab-measure/1"
}

/// A `difflab measure` answer (protocol `difflab-measure/1`): the gate's worker protocol between
/// builds. The gate runs the *baseline* build's worker and the candidate's, so the fields are a
/// contract: add, never rename.
package struct MeasureResponse: ResultsRecord, Equatable {
    /// The protocol name this type reads and writes (also printed by `difflab measure --protocol`).
    package static let protocolName = MeasureProtocol.v1.rawValue

    /// The protocol the answer names.
    package var protocolVersion = MeasureProtocol.v1
    package var results: [MeasureCellResult]

    package init(results: [MeasureCellResult]) {
        self.results = results
    }

    package static let blank = MeasureResponse(results: [])

    /// The declaration table: `protocol` and `results`.
    package static let fields: [RecordField<MeasureResponse>] = [
        .required("protocol", \.protocolVersion, .cases(), "the protocol, `difflab-measure/1`"),
        .required("results", \.results, .array(.record()), "one result per requested cell, in order"),
    ]

    /// Reads and checks a worker's answer. The worker may be an old build or not DiffLab at all,
    /// so nothing is taken on trust: the answer must carry `"protocol": "difflab-measure/1"` and a
    /// `results` array of objects (one per requested cell, in order, naming it), each with
    /// `samples` numbers in ``FieldRange/seconds`` (exactly `request.samples` of them when given),
    /// `callsPerSample` (when present and not `null`) in ``FieldRange/callsPerSample``, and
    /// `allocatedBytes` and `allocationRequests` (when present and not `null`) integers from 0 to
    /// 2^53. Unknown members are ignored.
    ///
    /// - Parameters:
    ///   - source: names the worker in errors, e.g. `the baseline's worker`.
    ///   - request: what was asked for; `nil` checks only the shape.
    /// - Throws: ``ResultsError`` naming the worker, the field and what was expected.
    /// - Complexity: O(size of the answer).
    package init(json: JSONValue, source: String, request: MeasureRequest?) throws(ResultsError) {
        // Counted against the request before any element is read: the answer is untrusted.
        // (After the protocol: an answer in another protocol is refused as that.)
        if let request, json["protocol"]?.stringValue?.utf8.elementsEqual(MeasureProtocol.v1.rawValue.utf8) == true,
            let answered = json["results"]?.arrayValue
        {
            guard answered.count == request.cells.count else {
                throw .invalid(source: source, field: "results", expected: "an array of \(request.cells.count) results, one per requested cell")
            }
            for (index, result) in answered.enumerated() {
                if let wanted = request.samples, let samples = result["samples"]?.arrayValue, samples.count != wanted {
                    throw .invalid(source: source, field: "results[\(index)].samples", expected: "an array of \(wanted) numbers")
                }
            }
        }
        try self.init(json: json, source: source)
        guard let request else { return }
        guard results.count == request.cells.count else {
            throw .invalid(source: source, field: "results", expected: "an array of \(request.cells.count) results, one per requested cell")
        }
        for (index, (result, cell)) in zip(results, request.cells).enumerated() {
            let path = "results[\(index)]"
            guard result.cell == cell else { throw .invalid(source: source, field: path + ".cell", expected: "\"\(cell)\"") }
            if let wanted = request.samples, result.samples?.count != wanted {
                throw .invalid(source: source, field: path + ".samples", expected: "an array of \(wanted) numbers")
            }
        }
    }
}
