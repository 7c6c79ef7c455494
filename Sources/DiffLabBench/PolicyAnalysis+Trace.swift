import DiffLabResults

extension PolicyAnalysis {
    /// The recommendation for a recorded trace, one per frame rate: ``recommendations(_:latencyBound:exclusions:)``'s
    /// rule (the feasible setting with the least hitch time, p99 latency within `latencyBound` and
    /// nothing dropped; ties to fewer reloads, lower latency, the simpler setting; the runner-up
    /// of another policy) on the trace's runs, which have one workload per frame rate. The row's
    /// band is the trace's own list sizes, `sizes` (smallest to largest version); its list size is
    /// the largest, which also decides what `adaptive` behaves as when choosing the runner-up.
    ///
    /// - Precondition: `latencyBound` is finite; every run's list size is `sizes.upperBound`.
    /// A setting in `exclusions` is never recommended (its updater broke a property).
    ///
    /// - Complexity: as ``recommendations(_:latencyBound:exclusions:)``.
    public static func traceRecommendations(
        _ runs: [PolicyGridRun], latencyBound: Double, sizes: ClosedRange<Int>, exclusions: [PolicySetting: PolicyExclusion] = [:]
    ) -> [PolicyRecommendationRow] {
        precondition(runs.allSatisfy { $0.workload.listSize == sizes.upperBound }, "traceRecommendations: one workload size, the largest version's")
        return recommendations(runs, latencyBound: latencyBound, exclusions: exclusions).map { row in
            var row = row
            (row.bandLow, row.bandHigh) = (sizes.lowerBound, sizes.upperBound)
            return row
        }
    }
}
