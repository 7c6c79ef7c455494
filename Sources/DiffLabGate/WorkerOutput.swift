import DiffLabJSON
import DiffLabResults

/// One cell of one round, as a build's `difflab measure` worker reported it, checked.
package struct WorkerResult: Sendable, Equatable {
    /// The cell name, as requested.
    package var cell: String
    /// Seconds per call, one per sample, each in ``WorkerResult/secondsRange``.
    package var samples: [Double]
    /// Bytes one call allocated (under jemalloc), in ``StoredBaseline/countRange``.
    package var allocatedBytes: Double?
    /// Allocation requests of one call (under jemalloc), in ``StoredBaseline/countRange``.
    package var allocationRequests: Double?

    /// The allowed range of a time sample: 0 to 86,400 seconds per call.
    package static let secondsRange = 0.0...86_400

    package init(cell: String, samples: [Double], allocatedBytes: Double? = nil, allocationRequests: Double? = nil) {
        self.cell = cell
        self.samples = samples
        self.allocatedBytes = allocatedBytes
        self.allocationRequests = allocationRequests
    }

    /// Reads and checks a worker's answer to `measure --cells cells --samples samples`: a
    /// `difflab-measure/1` answer (see ``DiffLabResults/MeasureResponse/init(json:source:request:)``)
    /// with one result per requested cell, in order, each with exactly `samples` samples.
    ///
    /// - Parameter worker: names the worker in errors, e.g. `the baseline's worker`.
    /// - Throws: ``GateError/badMeasurements(_:)`` naming the worker, the field and what was expected.
    /// - Complexity: O(size of the answer).
    package static func parse(_ json: JSONValue, cells: [String], samples: Int, worker: String) throws(GateError) -> [WorkerResult] {
        let response: MeasureResponse
        do throws(ResultsError) {
            response = try MeasureResponse(json: json, source: worker, request: MeasureRequest(cells: cells, samples: samples))
        } catch {
            throw .badMeasurements(error.description)
        }
        return response.results.map { result in
            WorkerResult(
                cell: result.cell, samples: result.samples ?? [], allocatedBytes: result.allocatedBytes.map(Double.init),
                allocationRequests: result.allocationRequests.map(Double.init))
        }
    }
}

/// The instruction count on the `totals:` line of a callgrind output file, or `nil` when there
/// is no such line or its first field is not a decimal integer in ``StoredBaseline/countRange``
/// (so `inf`, `nan`, a sign or an absurd count is never read as a measurement).
/// - Complexity: O(text).
package func callgrindTotal(_ text: String) -> Double? {
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("totals:") }),
        let field = line.dropFirst("totals:".count).split(separator: " ").first,
        field.allSatisfy({ $0.isASCII && $0.isNumber }), let count = UInt64(field),
        count <= UInt64(StoredBaseline.integerCountRange.upperBound)
    else { return nil }
    return Double(count)
}
