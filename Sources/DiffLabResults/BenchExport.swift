import DiffLabJSON

/// The standard formats `difflab export` writes a `difflab-bench/1` file as.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// github-action-benchmark's `customSmallerIsBetter` JSON: an array of
    /// `{"name", "unit", "value", "range", "extra"}`, one per measured cell.
    case githubActionBenchmark = "github-action-benchmark"
    /// The Bencher Metric Format (BMF) JSON: `{benchmark: {measure: {"value", "lower_value",
    /// "upper_value"}}}`, one benchmark per measured cell.
    case bencher
    /// Comma-separated values (RFC 4180): a header, then one row per cell (skipped ones included)
    /// with every statistic the file has.
    case csv
}

extension BenchMeasurement {
    /// The cell's name in exports: `engine/profile/kind/size/allocator`.
    public var exportName: String { "\(engine)/\(profile)/\(kind)/\(size)/\(allocator)" }
}

extension BenchResults {
    /// The file in `format`, as text ending in a newline.
    ///
    /// Times are exported in nanoseconds (Bencher's `latency` unit; github-action-benchmark's
    /// `unit` says `ns`). Skipped cells have no value: the JSON formats leave them out, the CSV
    /// keeps them with their reason.
    ///
    /// - Throws: ``ResultsError/invalid(source:field:expected:)`` when two measurements name the
    ///   same cell (a benchmark name must be unique in both JSON formats).
    /// - Complexity: O(measurements + samples).
    public func export(_ format: ExportFormat) throws(ResultsError) -> String {
        var seen: Set<String> = []
        for m in measurements where !seen.insert(m.exportName).inserted {
            throw .invalid(source: source, field: "measurements", expected: "each cell once (\(m.exportName) is there twice)")
        }
        switch format {
        case .githubActionBenchmark: return githubActionBenchmark.serialized() + "\n"
        case .bencher: return bencherMetrics.serialized() + "\n"
        case .csv: return csv
        }
    }

    /// The measured cells as github-action-benchmark `customSmallerIsBetter` entries: `value` the
    /// median in nanoseconds, `range` `± MAD`, `extra` the other statistics.
    public var githubActionBenchmark: JSONValue {
        .array(
            measurements.compactMap { m -> JSONValue? in
                guard let median = m.median else { return nil }
                var entry = JSONObject()
                entry["name"] = .string(m.exportName)
                entry["unit"] = .string("ns")
                entry["value"] = JSONValue(nanoseconds(median))
                if let mad = m.mad { entry["range"] = .string("± " + Self.number(nanoseconds(mad))) }
                entry["extra"] = .string(extra(m))
                return .object(entry)
            })
    }

    /// The measured cells in the Bencher Metric Format: the `latency` measure (nanoseconds: the
    /// median, with the fastest sample and the 90th percentile as lower and upper values), and
    /// `allocated-bytes` and `allocation-requests` where the file has them.
    public var bencherMetrics: JSONValue {
        var root = JSONObject()
        for m in measurements {
            guard let median = m.median else { continue }
            var measures = JSONObject()
            var latency = JSONObject()
            latency["value"] = JSONValue(nanoseconds(median))
            if let min = m.min { latency["lower_value"] = JSONValue(nanoseconds(min)) }
            if let p90 = m.p90 { latency["upper_value"] = JSONValue(nanoseconds(p90)) }
            measures["latency"] = .object(latency)
            if let bytes = m.allocatedBytes { measures["allocated-bytes"] = .object(["value": JSONValue(bytes)]) }
            if let requests = m.allocationRequests { measures["allocation-requests"] = .object(["value": JSONValue(requests)]) }
            root[m.exportName] = .object(measures)
        }
        return .object(root)
    }

    /// The CSV columns, in order: the `BenchMeasurement.fields` that name a column.
    public static let csvColumns = BenchMeasurement.fields.compactMap(\.description.column)

    /// Every cell as CSV (RFC 4180, CRLF line ends): ``csvColumns``, then one row per cell, each
    /// column the value of its field in `BenchMeasurement.fields`: text as it is, a number
    /// without a needless fraction, a list by its length, an absent figure empty. Text fields
    /// are quoted when they hold a comma, quote or any line break (checked scalar by scalar:
    /// CRLF is one `Character`), and prefixed with `'` when they start with `=`, `+`, `-`, `@`,
    /// their full-width forms, a tab, a carriage return, a line feed or NUL, so a spreadsheet
    /// never reads a name from a file as a formula.
    public var csv: String {
        let columns = BenchMeasurement.fields.filter { $0.description.column != nil }
        var lines = [Self.csvColumns.joined(separator: ",")]
        for m in measurements {
            lines.append(columns.map { Self.csvCell($0.exported(m)) }.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// One exported value as a CSV field.
    private static func csvCell(_ value: JSONValue?) -> String {
        switch value {
        case .none, .null?: ""
        case .string(let text)?: csvField(text)
        case .array(let elements)?: String(elements.count)
        case let value?: value.doubleValue.map(number) ?? csvField(value.serialized())
        }
    }

    /// One CSV text field, quoted and defused as ``csv`` says.
    static func csvField(_ text: String) -> String {
        var field = text
        if let first = field.unicodeScalars.first, "=+-@\u{FF1D}\u{FF0B}\u{FF0D}\u{FF20}\t\r\n\u{0}".unicodeScalars.contains(first) {
            field = "'" + field
        }
        let special: Set<Unicode.Scalar> = [",", "\"", "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"]
        guard field.unicodeScalars.contains(where: special.contains) else { return field }
        var quoted = "\""
        for character in field {
            if character == "\"" { quoted += "\"\"" } else { quoted.append(character) }
        }
        return quoted + "\""
    }

    /// A number as text: integers without a fraction, others in Swift's shortest form.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), value.magnitude < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    private func nanoseconds(_ seconds: Double) -> Double { seconds * 1e9 }

    /// github-action-benchmark's `extra`: the other statistics, in words.
    private func extra(_ m: BenchMeasurement) -> String {
        var parts: [String] = []
        if let min = m.min { parts.append("min \(Self.number(nanoseconds(min))) ns") }
        if let p90 = m.p90 { parts.append("p90 \(Self.number(nanoseconds(p90))) ns") }
        if let p99 = m.p99 { parts.append("p99 \(Self.number(nanoseconds(p99))) ns") }
        parts.append("\(m.samples.count) samples" + (m.callsPerSample.map { " × \($0) calls" } ?? ""))
        if let bytes = m.allocatedBytes { parts.append("\(Self.number(bytes)) bytes allocated") }
        if let requests = m.allocationRequests { parts.append("\(Self.number(requests)) allocations") }
        if m.timing == .selfTimed { parts.append("self-timed by the engine") }
        return parts.joined(separator: "; ")
    }
}
