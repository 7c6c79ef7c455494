/// A JUnit XML report, the format CI systems show test results in (GitHub's test reporters,
/// GitLab's, Jenkins'): one `<testsuites>` root, suites of test cases, each passed, failed (a
/// property or a threshold did not hold), in error (a crash, or a run that could not judge) or
/// skipped.
///
/// The XML follows the common JUnit schema (Ant's, as Jenkins and GitLab read it): counts on
/// every suite and on the root, `time` in seconds, `<failure>`/`<error>`/`<skipped>` with a
/// `message` attribute and the details as text, `<system-out>` for notes. Every string is escaped
/// (`xmlEscaped(_:)`), so any name or message gives well-formed XML.
public struct JUnitReport: Sendable, Equatable {
    /// How a test case ended.
    public enum Outcome: Sendable, Equatable {
        /// It held.
        case passed
        /// It did not hold: a property failed, a metric regressed.
        case failure(message: String, type: String, details: String)
        /// It could not be judged, or crashed.
        case error(message: String, type: String, details: String)
        /// It was not run.
        case skipped(message: String)
    }

    /// One test case.
    public struct TestCase: Sendable, Equatable {
        /// The group it belongs to (JUnit's `classname`), e.g. `difflab.fuzz.hashmap`.
        public var className: String
        /// Its name, e.g. `batch-valid`.
        public var name: String
        /// Seconds it took, when known.
        public var seconds: Double?
        /// How it ended.
        public var outcome: Outcome
        /// Notes shown with it (`<system-out>`), when any.
        public var output: String?

        /// A test case; see the properties.
        public init(className: String, name: String, seconds: Double? = nil, outcome: Outcome, output: String? = nil) {
            self.className = className
            self.name = name
            self.seconds = seconds
            self.outcome = outcome
            self.output = output
        }
    }

    /// One suite.
    public struct Suite: Sendable, Equatable {
        /// Its name, e.g. `difflab fuzz`.
        public var name: String
        /// Seconds the suite took, when known.
        public var seconds: Double?
        /// Run settings shown with it (`<properties>`), in order.
        public var properties: [DisplayPair]
        /// Its test cases, in order.
        public var cases: [TestCase]

        /// A suite; see the properties.
        public init(name: String, seconds: Double? = nil, properties: [DisplayPair] = [], cases: [TestCase]) {
            self.name = name
            self.seconds = seconds
            self.properties = properties
            self.cases = cases
        }

        var failures: Int { cases.filter { if case .failure = $0.outcome { true } else { false } }.count }
        var errors: Int { cases.filter { if case .error = $0.outcome { true } else { false } }.count }
        var skipped: Int { cases.filter { if case .skipped = $0.outcome { true } else { false } }.count }
    }

    /// A name and a value (a suite's property).
    public struct DisplayPair: Sendable, Equatable {
        /// The name.
        public var name: String
        /// The value.
        public var value: String

        /// A pair.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The report's name (the root's `name`).
    public var name: String
    /// The suites, in order.
    public var suites: [Suite]

    /// A report; see the properties.
    public init(name: String, suites: [Suite]) {
        self.name = name
        self.suites = suites
    }

    /// The report as a UTF-8 XML document ending in a newline.
    ///
    /// - Complexity: O(total length of the names, messages and details).
    public var xml: String {
        let all = suites.flatMap(\.cases)
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        let totals = counts(
            all.count, suites.reduce(0) { $0 + $1.failures }, suites.reduce(0) { $0 + $1.errors }, suites.reduce(0) { $0 + $1.skipped })
        let time = suites.compactMap(\.seconds).reduce(0, +)
        lines.append("<testsuites name=\"\(Self.attribute(name))\"\(totals) time=\"\(Self.seconds(time))\">")
        for suite in suites {
            let attributes = counts(suite.cases.count, suite.failures, suite.errors, suite.skipped)
            lines.append("  <testsuite name=\"\(Self.attribute(suite.name))\"\(attributes) time=\"\(Self.seconds(suite.seconds ?? 0))\">")
            if !suite.properties.isEmpty {
                lines.append("    <properties>")
                for p in suite.properties {
                    lines.append("      <property name=\"\(Self.attribute(p.name))\" value=\"\(Self.attribute(p.value))\"/>")
                }
                lines.append("    </properties>")
            }
            for testCase in suite.cases { lines.append(contentsOf: Self.lines(testCase)) }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private func counts(_ tests: Int, _ failures: Int, _ errors: Int, _ skipped: Int) -> String {
        " tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
    }

    private static func lines(_ c: TestCase) -> [String] {
        let time = c.seconds.map { " time=\"\(seconds($0))\"" } ?? ""
        let open = "    <testcase classname=\"\(attribute(c.className))\" name=\"\(attribute(c.name))\"\(time)"
        var body: [String] = []
        switch c.outcome {
        case .passed: break
        case .failure(let message, let type, let details):
            body.append("      <failure message=\"\(attribute(message))\" type=\"\(attribute(type))\">\(xmlEscaped(details))</failure>")
        case .error(let message, let type, let details):
            body.append("      <error message=\"\(attribute(message))\" type=\"\(attribute(type))\">\(xmlEscaped(details))</error>")
        case .skipped(let message):
            body.append("      <skipped message=\"\(attribute(message))\"/>")
        }
        if let output = c.output { body.append("      <system-out>\(xmlEscaped(output))</system-out>") }
        return body.isEmpty ? [open + "/>"] : [open + ">"] + body + ["    </testcase>"]
    }

    /// `text` escaped for an attribute value: as ``xmlEscaped(_:)``, with tab, line feed and
    /// carriage return as character references (a parser would turn them into spaces).
    static func attribute(_ text: String) -> String {
        var out = ""
        for scalar in xmlEscaped(text).unicodeScalars {
            switch scalar {
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Seconds with at most three decimals (a non-finite or negative value is 0).
    static func seconds(_ value: Double) -> String {
        guard value.isFinite, value > 0 else { return "0" }
        let millis = (value * 1000).rounded()
        guard millis < 1e15 else { return "\(value)" }
        let whole = Int(millis) / 1000
        let fraction = Int(millis) % 1000
        return fraction == 0 ? String(whole) : "\(whole)." + String(String(fraction + 1000).dropFirst())
    }
}
