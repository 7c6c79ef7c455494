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

/// One cell of a `difflab measure` answer.
package struct MeasureCellResult: Sendable, Equatable {
    enum Key: String { case cell, samples, callsPerSample, allocatedBytes, allocationRequests }

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

    /// The result object: just `cell` for an instructions run; otherwise the samples, calls per
    /// sample and both allocation figures (`null` without jemalloc). O(samples).
    package var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.cell, cell)
        if let samples {
            w.set(.samples, numbers: samples)
            w.set(.callsPerSample, callsPerSample)
            w.set(.allocatedBytes, allocatedBytes, null: true)
            w.set(.allocationRequests, allocationRequests, null: true)
        }
        return w.json
    }
}

/// A `difflab measure` answer (protocol `difflab-measure/1`): the gate's worker protocol between
/// builds. The gate runs the *baseline* build's worker and the candidate's, so the fields are a
/// contract: add, never rename.
package struct MeasureResponse: Sendable, Equatable {
    enum Key: String { case `protocol`, results }

    /// The protocol name this type reads and writes (also printed by `difflab measure --protocol`).
    package static let protocolName = "difflab-measure/1"

    package var results: [MeasureCellResult]

    package init(results: [MeasureCellResult]) {
        self.results = results
    }

    /// The answer object: `protocol` and `results`. O(size).
    package var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.protocol, Self.protocolName)
        w.set(.results, .array(results.map(\.json)))
        return w.json
    }

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
    /// - Throws: ``ResultsError/invalid(source:field:expected:)`` naming the worker, the field and
    ///   what was expected.
    /// - Complexity: O(size of the answer).
    package init(json: JSONValue, source: String, request: MeasureRequest? = nil) throws(ResultsError) {
        func bad(_ field: String, _ expected: String) -> ResultsError { .invalid(source: source, field: field, expected: expected) }
        guard json[Key.protocol.rawValue]?.stringValue == Self.protocolName else {
            throw bad("\"\(Key.protocol.rawValue)\"", "\"\(Self.protocolName)\"")
        }
        guard let elements = json[Key.results.rawValue]?.arrayValue, elements.count == request?.cells.count ?? elements.count else {
            throw bad(
                "\"\(Key.results.rawValue)\"",
                request.map { "an array of \($0.cells.count) results, one per requested cell" } ?? "an array of results")
        }
        typealias R = MeasureCellResult.Key
        results = []
        for (index, element) in elements.enumerated() {
            let path = "\(Key.results.rawValue)[\(index)]"
            let expectedCell = request.map { $0.cells[index] }
            guard let cell = element[R.cell.rawValue]?.stringValue, cell == expectedCell ?? cell else {
                throw bad(path + "." + R.cell.rawValue, expectedCell.map { "\"\($0)\"" } ?? "a cell name")
            }
            var result = MeasureCellResult(cell: cell)
            let samplesValue = element[R.samples.rawValue]
            if request?.samples != nil || (samplesValue != nil && samplesValue != .null) {
                let wanted = request?.samples
                guard let values = samplesValue?.arrayValue, values.count == wanted ?? values.count else {
                    throw bad(path + "." + R.samples.rawValue, wanted.map { "an array of \($0) numbers" } ?? "an array of numbers")
                }
                var seconds: [Double] = []
                for (offset, value) in values.enumerated() {
                    guard let number = value.doubleValue, number.isFinite, FieldRange<Double>.seconds.range.contains(number) else {
                        throw bad("\(path).\(R.samples.rawValue)[\(offset)]", "a number of seconds from 0 to 86,400, not \(value.briefDescription)")
                    }
                    seconds.append(number)
                }
                result.samples = seconds
            }
            func integer(_ key: R, _ range: FieldRange<Int>, _ words: String) throws(ResultsError) -> Int? {
                guard let value = element[key.rawValue], value != .null else { return nil }
                guard let number = value.intValue, range.range.contains(number) else {
                    throw bad("\(path).\(key.rawValue)", "null or an integer from \(words), not \(value.briefDescription)")
                }
                return number
            }
            result.callsPerSample = try integer(.callsPerSample, .callsPerSample, "1 to 1,000,000,000")
            result.allocatedBytes = try integer(.allocatedBytes, .count, "0 to 2^53")
            result.allocationRequests = try integer(.allocationRequests, .count, "0 to 2^53")
            results.append(result)
        }
    }
}
