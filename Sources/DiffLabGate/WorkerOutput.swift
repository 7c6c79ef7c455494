import DiffLabJSON

/// One cell of one round, as a build's `difflab measure` worker reported it, checked.
public struct WorkerResult: Sendable, Equatable {
    /// The cell name, as requested.
    public var cell: String
    /// Seconds per call, one per sample, each in ``WorkerResult/secondsRange``.
    public var samples: [Double]
    /// Bytes one call allocated (under jemalloc), in ``StoredBaseline/countRange``.
    public var allocatedBytes: Double?
    /// Allocation requests of one call (under jemalloc), in ``StoredBaseline/countRange``.
    public var allocationRequests: Double?

    /// The allowed range of a time sample: 0 to 86,400 seconds per call.
    public static let secondsRange = 0.0...86_400

    public init(cell: String, samples: [Double], allocatedBytes: Double? = nil, allocationRequests: Double? = nil) {
        self.cell = cell
        self.samples = samples
        self.allocatedBytes = allocatedBytes
        self.allocationRequests = allocationRequests
    }

    /// Reads and checks a worker's answer to `measure --cells cells --samples samples`.
    ///
    /// The answer must carry `"protocol": protocolName` and a `results` array with one object per
    /// requested cell, in order, each naming its cell and holding exactly `samples` numbers in
    /// ``secondsRange`` and, when present and not `null`, `allocatedBytes` and
    /// `allocationRequests` as integers in ``StoredBaseline/countRange``. The worker may be an old
    /// build or not DiffLab at all, so nothing is taken on trust.
    ///
    /// - Parameter worker: names the worker in errors, e.g. `the baseline's worker`.
    /// - Throws: ``GateError/badMeasurements(_:)`` naming the worker, the field and what was expected.
    /// - Complexity: O(size of the answer).
    public static func parse(
        _ json: JSONValue, protocolName: String, cells: [String], samples: Int, worker: String
    ) throws(GateError) -> [WorkerResult] {
        func bad(_ field: String, _ expected: String) -> GateError { .badMeasurements("\(worker): \(field) should be \(expected)") }
        guard json["protocol"]?.stringValue == protocolName else { throw bad("\"protocol\"", "\"\(protocolName)\"") }
        guard let results = json["results"]?.arrayValue, results.count == cells.count else {
            throw bad("\"results\"", "an array of \(cells.count) results, one per requested cell")
        }
        var checked: [WorkerResult] = []
        for (index, (result, cell)) in zip(results, cells).enumerated() {
            let path = "results[\(index)]"
            guard result["cell"]?.stringValue == cell else { throw bad(path + ".cell", "\"\(cell)\"") }
            guard let values = result["samples"]?.arrayValue, values.count == samples else {
                throw bad(path + ".samples", "an array of \(samples) numbers")
            }
            var seconds: [Double] = []
            for (offset, value) in values.enumerated() {
                guard let number = value.doubleValue, number.isFinite, secondsRange.contains(number) else {
                    throw bad("\(path).samples[\(offset)]", "a number of seconds from 0 to 86,400, not \(value.briefDescription)")
                }
                seconds.append(number)
            }
            func count(_ key: String) throws(GateError) -> Double? {
                guard let value = result[key], value != .null else { return nil }
                guard let number = value.intValue, StoredBaseline.integerCountRange.contains(number) else {
                    throw bad("\(path).\(key)", "null or an integer from 0 to 2^53, not \(value.briefDescription)")
                }
                return Double(number)
            }
            checked.append(
                WorkerResult(cell: cell, samples: seconds, allocatedBytes: try count("allocatedBytes"), allocationRequests: try count("allocationRequests")))
        }
        return checked
    }
}

/// The instruction count on the `totals:` line of a callgrind output file, or `nil` when there
/// is no such line or its first field is not a decimal integer in ``StoredBaseline/countRange``
/// (so `inf`, `nan`, a sign or an absurd count is never read as a measurement).
/// - Complexity: O(text).
public func callgrindTotal(_ text: String) -> Double? {
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("totals:") }),
        let field = line.dropFirst("totals:".count).split(separator: " ").first,
        field.allSatisfy({ $0.isASCII && $0.isNumber }), let count = UInt64(field),
        count <= UInt64(StoredBaseline.integerCountRange.upperBound)
    else { return nil }
    return Double(count)
}
