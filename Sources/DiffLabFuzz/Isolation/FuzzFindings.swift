import DiffLabCore
import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults

// The failures a campaign process hands over to its supervisor: one record per line in a file of
// the run's private folder, written as each failure is found (and again when it is shrunk).

extension FuzzSupervisor {
    /// One failure as the campaign process hands it over: its regression record and the run's
    /// figures about it.
    static func record(_ failure: FuzzFailure) -> FuzzFindingRecord {
        FuzzFindingRecord(
            regression: failure.regression.json, originalItems: failure.originalItems, inputsToFind: failure.inputsToFind,
            shrinkAttempts: failure.shrinkAttempts, secondsToFind: failure.secondsToFind)
    }

    /// The last of `records` for each failure (``FuzzFailure/key``), in the order the failures
    /// were first found.
    static func latestRecords(_ records: [FuzzFailure]) -> [FuzzFailure] {
        var latest: [String: Int] = [:]
        var kept: [FuzzFailure] = []
        for record in records {
            if let at = latest[record.key] {
                kept[at] = record
            } else {
                latest[record.key] = kept.count
                kept.append(record)
            }
        }
        return kept
    }

    /// The failures a campaign process wrote to `path`, one record per line, their times moved by
    /// `secondsOffset`. A last line without its newline is a record the process was writing when
    /// it died: left out (its failure is not known, so the next process may find it again).
    ///
    /// - Throws: ``FuzzIsolationError/findingsUnreadable(path:reason:)`` naming the problem (a
    ///   file over ``maxFindingsBytes``, a line that is not JSON, a record that is not a
    ///   ``FuzzFindingRecord``, a regression that ``RegressionCase/init(json:)`` refuses).
    func readFindings(_ path: String, secondsOffset: Double) throws(FuzzIsolationError) -> [FuzzFailure] {
        func broken(_ why: String) -> FuzzIsolationError { .findingsUnreadable(path: path, reason: why) }
        guard FileSystem.isAccessible(path, []) else { return [] }
        let bytes: [UInt8]
        do { bytes = try readFile(path, limit: maxFindingsBytes) } catch { throw .findingsFile(error) }
        var failures: [FuzzFailure] = []
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
            let record: FuzzFindingRecord
            let regression: RegressionCase
            do {
                record = try FuzzFindingRecord(json: try JSONValue.parse(bytes: Array(line)), source: path)
                regression = try RegressionCase(json: record.regression)
            } catch {
                throw broken("\(error)")
            }
            failures.append(
                FuzzFailure(
                    property: regression.property, subject: regression.subject,
                    failure: PropertyFailure(
                        signature: regression.signature, message: regression.message,
                        outsideContract: regression.outsideContract),
                    input: regression.input, choices: regression.choices, size: regression.size, seed: regression.seed,
                    originalItems: record.originalItems, inputsToFind: record.inputsToFind, shrinkAttempts: record.shrinkAttempts,
                    secondsToFind: record.secondsToFind + secondsOffset))
        }
        return failures
    }
}
