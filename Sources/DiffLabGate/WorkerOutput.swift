import DiffLabJSON
import DiffLabResults

extension MeasureResponse {
    /// The results of a worker's answer to `measure --cells cells --samples samples`, checked: a
    /// `difflab-measure/1` answer (see ``DiffLabResults/MeasureResponse/init(json:source:request:)``)
    /// with one result per requested cell, in order, each with exactly `samples` samples.
    ///
    /// - Parameter worker: names the worker in errors, e.g. `the baseline's worker`.
    /// - Throws: ``GateError/badMeasurements(_:)`` naming the worker, the field and what was expected.
    /// - Complexity: O(size of the answer).
    package static func results(_ json: JSONValue, cells: [String], samples: Int, worker: String) throws(GateError) -> [MeasureCellResult] {
        do throws(ResultsError) {
            return try MeasureResponse(json: json, source: worker, request: MeasureRequest(cells: cells, samples: samples)).results
        } catch {
            throw .badMeasurements(error.description)
        }
    }
}

/// The instruction count on the `totals:` line of a callgrind output file, or `nil` when there
/// is no such line or its first field is not a decimal integer in `StoredBaseline.countRange`
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
