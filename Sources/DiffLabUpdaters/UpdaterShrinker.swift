extension UpdaterFuzzer {
    /// The smallest run found that still breaks the same property as `run`: fewer requests, then
    /// fewer deviations from the default schedule, then fewer items; repeated while any pass
    /// helps, within `budget` replays.
    ///
    /// Every candidate is replayed from its script and schedule, so the result replays too. A run
    /// that broke nothing is returned as it is.
    ///
    /// - Complexity: at most `budget` runs.
    public func shrink(_ run: UpdaterRun, budget: Int = 2_000) -> UpdaterRun {
        guard let property = run.failure?.property else { return run }
        var best = replay(run)
        guard best.failure?.property == property else { return run }
        var replays = 0
        func attempt(_ script: UpdaterScript, _ schedule: [String]) -> Bool {
            guard replays < budget else { return false }
            replays += 1
            let candidate = self.run(script: script, strategy: .replay(schedule))
            guard candidate.failure?.property == property else { return false }
            best = candidate
            return true
        }
        var progress = true
        while progress && replays < budget {
            progress = false
            // Fewer requests.
            var number = best.script.requestCount
            while number >= 1 && best.script.requestCount > 1 {
                if number <= best.script.requestCount, attempt(best.script.removingRequest(number), best.schedule) { progress = true }
                number -= 1
            }
            // Fewer deviations: drop chunks of the schedule (the default order takes their place).
            var chunk = max(1, best.schedule.count / 2)
            while chunk >= 1 {
                var start = 0
                while start < best.schedule.count {
                    var schedule = best.schedule
                    schedule.removeSubrange(start..<min(start + chunk, schedule.count))
                    if attempt(best.script, schedule) { progress = true } else { start += chunk }
                }
                chunk /= 2
            }
            // Fewer items.
            for id in best.script.itemIDs where attempt(best.script.removingItem(id), best.schedule) { progress = true }
            // Requests at the same moment, where time does not matter.
            if best.script.requestTimes.contains(where: { $0 != 0 }),
                attempt(UpdaterScript(unchecked: best.script.versions, requestTimes: best.script.requestTimes.map { _ in 0 }), best.schedule)
            {
                progress = true
            }
        }
        // The recorded schedule of the last replay, trimmed of the default continuation it ended with.
        return best
    }
}
