import DiffLabCore
import DiffLabResults
import DiffLabUpdaters

/// The correctness half of the policy lab: every setting is a configuration of IGListKit's
/// updater (`PolicySetting.updaterConfiguration`), and before a setting is recommended, that
/// updater (``IGListAdapterUpdaterModel``, on the same `IGListUpdateMachine` the simulation
/// times) is checked under the scheduler by ``UpdaterFuzzer``. A setting whose updater breaks a
/// property is never recommended (``PolicyAnalysis/recommendations(_:latencyBound:exclusions:)``).
public enum PolicyUpdaterCheck {
    /// Runs per setting.
    public static let runs = 300
    /// The campaign's seed: the same for every setting and every run of the lab, so a verdict
    /// replays.
    public static let seed: UInt64 = 1

    /// The updater a setting configures, as checked: adaptive diffing's threshold and the reload
    /// fallback's are scaled to the fuzzer's lists (half of ``UpdaterFuzzSettings/standard``'s
    /// largest list, and 2 changes), so both paths of each are taken in small runs; where a
    /// threshold lies does not change which interleavings exist.
    public static func subject(for setting: PolicySetting) -> UpdaterSubject? {
        var configuration = setting.updaterConfiguration
        if case .adaptive = configuration.diffing {
            configuration.diffing = .adaptive(maxItemCountToRunOnMain: max(1, UpdaterFuzzSettings.standard.maxItems / 2))
        }
        if let threshold = configuration.reloadThreshold { configuration.reloadThreshold = min(threshold, 2) }
        return try? IGListAdapterUpdaterModel.subject(configuration: configuration, name: "iglistkit-\(setting.policy.rawValue)")
    }

    /// Checks the updater of every distinct setting in `settings`; returns one exclusion per
    /// setting whose updater broke a property (the first property, by ``UpdaterProperty`` order),
    /// and one for a setting that is no valid updater configuration (coalescing intervals the
    /// updater refuses, say).
    ///
    /// - Complexity: ``runs`` small runs per distinct setting (a few milliseconds each).
    public static func exclusions(
        for settings: [PolicySetting], runs: Int = PolicyUpdaterCheck.runs, seed: UInt64 = PolicyUpdaterCheck.seed
    ) -> [PolicySetting: PolicyExclusion] {
        var exclusions: [PolicySetting: PolicyExclusion] = [:]
        var seen: Set<PolicySetting> = []
        for setting in settings where seen.insert(setting).inserted {
            guard let subject = subject(for: setting) else {
                exclusions[setting] = PolicyExclusion(
                    setting: setting, updater: "iglistkit", property: .ends, message: "the setting is not a valid IGListKit updater configuration")
                continue
            }
            guard let fuzzer = try? UpdaterFuzzer(subject: subject) else {
                exclusions[setting] = PolicyExclusion(
                    setting: setting, updater: subject.name, property: .ends,
                    message: "the updater could not be checked (its fuzzer refused the settings)")
                continue
            }
            if let finding = fuzzer.campaign(runs: runs, seed: seed, shrinkBudget: 200).findings.first {
                exclusions[setting] = PolicyExclusion(
                    setting: setting, updater: subject.name, property: finding.property, message: finding.shrunk.failure?.message ?? "")
            }
        }
        return exclusions
    }

    /// One line on a check of `settings` distinct settings that gave `exclusions`.
    public static func summary(settings: Int, exclusions: Int) -> String {
        "updater check: \(settings) settings, each its IGListKit updater under \(runs) scheduled runs: "
            + (exclusions == 0 ? "every property held" : "\(exclusions) broke a property and are not recommended")
    }
}
