import DiffLabUpdaters
import Testing

@Suite struct BuiltInUpdatersTests {
    @Test func theTableListsEveryModelOnceInOrder() {
        let expected = [
            "background-diff", "iglistkit", "iglistkit-background", "iglistkit-adaptive", "iglistkit-coalescing", "differencekit", "diffable",
            "async-list-differ",
        ]
        #expect(BuiltInUpdaters.names == expected)
        #expect(Set(BuiltInUpdaters.names).count == BuiltInUpdaters.all.count)
        for name in expected { #expect(BuiltInUpdaters.named(name)?.name == name) }
        #expect(BuiltInUpdaters.named("IGListKit") == nil)
        #expect(BuiltInUpdaters.all.allSatisfy { !$0.summary.isEmpty })
        #expect(BuiltInUpdaters.all.filter(\.promises.dropsSupersededDiffs).map(\.name) == ["async-list-differ"])
    }

    @Test func onlyTheHandWrittenUpdaterFails() throws {
        var failing: [String] = []
        for subject in BuiltInUpdaters.all {
            let campaign = try UpdaterFuzzer(subject: subject).campaign(runs: 150, seed: 11)
            if !campaign.passed { failing.append(subject.name) }
            #expect(campaign.checked.contains(.dropsSuperseded) == subject.promises.dropsSupersededDiffs)
        }
        #expect(failing == ["background-diff"])
    }
}
