extension UpdaterFuzzer {
    /// The most steps one shrink spends on its replays, all together.
    public static let stepBudget = 20_000_000

    /// The smallest run found that still breaks the same property as `run`: fewer requests, then
    /// fewer deviations from the default schedule, then fewer items, then every request at time 0;
    /// repeated while any pass helps, within `budget` replays. Each pass that helps shortens the
    /// script or the list of lanes replayed, so shrinking ends well before the budget.
    ///
    /// Every candidate is replayed from its script and schedule, so the result replays too. A run
    /// that broke nothing is returned as it is.
    ///
    /// Shrinking also stops once its replays have taken ``stepBudget`` steps in all (20,000,000):
    /// a finding of ``UpdaterProperty/ends`` costs a whole step budget per replay.
    ///
    /// - Complexity: at most `budget` runs and ``stepBudget`` steps.
    public func shrink(_ run: UpdaterRun, budget: Int = 2_000) -> UpdaterRun {
        guard let property = run.failure?.property else { return run }
        var best = replay(run)
        guard best.failure?.property == property else { return run }
        // The replay list that produced `best`: every pass shortens it or the script, never the
        // recorded schedule (which the default continuation refills to the same length, so a
        // "shorter" candidate taken from it would be the same run and the pass would never end).
        var input = best.schedule
        var replays = 0
        var steps = 0
        var spent: Bool { replays >= budget || steps >= Self.stepBudget }
        func attempt(_ script: @autoclosure () -> UpdaterScript, _ schedule: [String]) -> Bool {
            guard !spent else { return false }
            replays += 1
            let candidate = self.run(script: script(), strategy: .replay(schedule))
            steps += candidate.schedule.count
            guard candidate.failure?.property == property else { return false }
            best = candidate
            input = schedule
            return true
        }
        var progress = true
        while progress && !spent {
            progress = false
            // Fewer requests.
            var number = best.script.requestCount
            while number >= 1 && best.script.requestCount > 1 && !spent {
                if number <= best.script.requestCount, attempt(best.script.removingRequest(number), input) { progress = true }
                number -= 1
            }
            // Fewer deviations: drop chunks of the replay list (the default order takes their place).
            var chunk = max(1, input.count / 2)
            while chunk >= 1 && !spent {
                var start = 0
                while start < input.count && !spent {
                    var schedule = input
                    schedule.removeSubrange(start..<min(start + chunk, schedule.count))
                    if attempt(best.script, schedule) { progress = true } else { start += chunk }
                }
                chunk /= 2
            }
            // Fewer items.
            for id in best.script.itemIDs where !spent && attempt(best.script.removingItem(id), input) { progress = true }
            // Requests at the same moment, where time does not matter.
            if best.script.requestTimes.contains(where: { $0 != 0 }),
                attempt(UpdaterScript(unchecked: best.script.versions, requestTimes: best.script.requestTimes.map { _ in 0 }), input)
            {
                progress = true
            }
        }
        // The run as recorded: its schedule is every lane it ran, so it replays step for step.
        return best
    }
}
