import DiffLabFuzz
import DiffLabReport

/// `difflab fuzz --junit`: a fuzzing run as JUnit XML.
enum FuzzJUnit {
    /// One test case per property × engine (class `difflab.fuzz.<engine>`, named after the
    /// property), failed with its shrunk counterexample when the property failed (an error when
    /// the engine crashed or hung); a counterexample outside the engine's declared contract is
    /// noted in the case's output and does not fail it, as it does not fail the run. A run that
    /// checked no case adds an error case `difflab.fuzz` / `run`: a run that proved nothing is
    /// never green.
    ///
    /// - Complexity: O(engines × properties + failures).
    static func report(_ report: FuzzReport, options: FuzzOptions, crashes: Set<String>, files: [String: String]) -> JUnitReport {
        var cases: [JUnitReport.TestCase] = []
        for subject in options.subjects {
            for property in options.properties {
                let found = report.failures.filter { $0.subject == subject.name && $0.property == property }
                cases.append(testCase(subject.name, property.rawValue, found, crashes: crashes, files: files))
            }
        }
        if report.checks == 0 {
            let message = "no case ran (the run ended before the first input was checked)"
            cases.append(
                JUnitReport.TestCase(className: "difflab.fuzz", name: "run", outcome: .error(message: message, type: "no-cases", details: message)))
        }
        let properties = [
            JUnitReport.DisplayPair("seed", String(options.seed)), JUnitReport.DisplayPair("cases", String(report.checks)),
            JUnitReport.DisplayPair("inputs", String(report.inputs)), JUnitReport.DisplayPair("largestInput", String(report.largestInput)),
        ]
        return JUnitReport(
            name: "difflab fuzz", suites: [JUnitReport.Suite(name: "difflab fuzz", seconds: report.seconds, properties: properties, cases: cases)])
    }

    static func testCase(
        _ subject: String, _ property: String, _ found: [FuzzFailure], crashes: Set<String>, files: [String: String]
    ) -> JUnitReport.TestCase {
        let inContract = found.filter { !$0.outsideContract }
        let outside = found.filter(\.outsideContract).map { "outside the engine's contract: " + details($0, files) }
        let output = outside.isEmpty ? nil : outside.joined(separator: "\n\n")
        guard let first = inContract.first else {
            return JUnitReport.TestCase(className: "difflab.fuzz." + subject, name: property, outcome: .passed, output: output)
        }
        let text = inContract.map { details($0, files) }.joined(separator: "\n\n")
        let crashed = inContract.contains { crashes.contains($0.signature) }
        let message = first.failure.signature + ": " + first.failure.message
        return JUnitReport.TestCase(
            className: "difflab.fuzz." + subject, name: property,
            outcome: crashed
                ? .error(message: message, type: first.signature.hasSuffix("/hung") ? "hang" : "crash", details: text)
                : .failure(message: message, type: "property", details: text),
            output: output)
    }

    /// The shrunk counterexample and how to replay it.
    static func details(_ f: FuzzFailure, _ files: [String: String]) -> String {
        var lines = [
            f.failure.signature + ": " + f.failure.message,
            "shrunk from \(f.originalItems) to \(f.shrunkItems) items (\(f.shrinkAttempts) attempts), found after \(f.inputsToFind) inputs",
            "old: \(f.input.old)", "new: \(f.input.new)",
        ]
        if let file = files[f.signature] { lines.append("saved: \(file) (replay: difflab replay \(file))") }
        return lines.joined(separator: "\n")
    }
}
