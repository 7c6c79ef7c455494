import DiffLabUpdaters
import Testing

@Suite struct UpdaterTimelineTests {
    /// The first failing run of `background-diff`, shrunk.
    func shrunkFailure() throws -> UpdaterRun {
        let fuzzer = try UpdaterFuzzer(subject: BackgroundDiffUpdater.subject)
        let finding = try #require(fuzzer.campaign(runs: 200, seed: 1).findings.first)
        return finding.shrunk
    }

    @Test(arguments: [40, 72, 100, 160])
    func everyEventIsALineInItsColumnNoWiderThanAsked(width: Int) throws {
        let run = try shrunkFailure()
        let failure = try #require(run.failure)
        let lines = run.timeline(width: width).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines.filter { $0.count > width })")
        #expect(lines.first?.hasSuffix("background") == true)
        let column = try #require(lines.first?.firstRange(of: "background")).lowerBound
        let backgroundColumn = lines.first!.distance(from: lines.first!.startIndex, to: column)
        let mainColumn = lines.first!.distance(from: lines.first!.startIndex, to: lines.first!.firstRange(of: "main thread")!.lowerBound)
        for event in run.events {
            // The event's first line: its step right-aligned in the step column, its lane at its column.
            let line = try #require(
                lines.first { $0.dropFirst(2).drop { $0 == " " }.hasPrefix("\(event.step) ") && $0.contains(event.lane + ":") },
                "step \(event.step)")
            let start = line.distance(from: line.startIndex, to: line.firstRange(of: event.lane + ":")!.lowerBound)
            #expect(start == (event.onMain ? mainColumn : backgroundColumn), "\(line)")
            #expect(line.hasPrefix("✗") == (event.step == failure.step), "\(line)")
        }
        // One event marked, and the failure stated last (wrapped: its message is UIKit's, long).
        #expect(lines.filter { $0.hasPrefix("✗ ") && $0.dropFirst(2).first == " " }.count == 1)
        let statement = try #require(lines.lastIndex { $0.hasPrefix("✗ \(failure.property.rawValue) at step \(failure.step): ") })
        #expect(lines[statement...].dropFirst().allSatisfy { $0.hasPrefix("  ") })
        #expect(lines.contains { $0.contains("· ") })
    }

    @Test func aFailureAtTheEndMarksTheLastEventAndLongTextWraps() {
        let long = String(repeating: "a", count: 300)
        let events = [
            UpdaterEvent(step: 1, time: 0, lane: "app", onMain: true, label: "start"),
            UpdaterEvent(step: 2, time: 0.25, lane: "background", onMain: false, label: "diff " + long, notes: [long + " " + long]),
            UpdaterEvent(step: 3, time: .infinity, lane: "app", onMain: true, label: "end: every lane is idle"),
        ]
        let text = UpdaterTimeline.text(events, failure: UpdaterFailure(property: .lastVersionShown, message: "lost", step: 0), width: 60)
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 60 })
        #expect(lines.first { $0.contains("end: every lane") }?.hasPrefix("✗") == true)
        #expect(lines.contains { $0.contains("0.250") })
        #expect(lines.contains { $0.contains("  ?  ") })
        // Every character of the long label and note is printed, in pieces.
        #expect(text.filter { $0 == "a" }.count >= 900)
        #expect(lines.last == "✗ last-version-shown at the end: lost")
    }

    @Test func aLongRunShowsItsEndsAndItsFailingStep() {
        let events = (1...10_000).map {
            UpdaterEvent(step: $0, time: 0, lane: $0 % 2 == 0 ? "main" : "background", onMain: $0 % 2 == 0, label: "work \($0)")
        }
        let lines = UpdaterTimeline.text(events, failure: UpdaterFailure(property: .ends, message: "endless", step: 5_000), maxEvents: 10)
            .split(separator: "\n")
        #expect(lines.count == 1 + 10 + 1 + 2 + 1)
        #expect(lines.contains { $0.hasSuffix("… 4994 steps not shown") })
        #expect(lines.contains { $0.hasSuffix("… 4995 steps not shown") })
        #expect(lines.contains { $0.hasPrefix("✗  5000") && $0.contains("main: work 5000") })
        #expect(lines.contains { $0.contains("work 10000") } && lines.contains { $0.contains("work 5 ") || $0.hasSuffix("work 5") })
        #expect(!lines.contains { $0.hasSuffix("work 6") })
    }

    @Test func aWidthOutOfRangeIsClamped() {
        let events = [UpdaterEvent(step: 1, time: 0, lane: "main", onMain: true, label: String(repeating: "x ", count: 200))]
        #expect(UpdaterTimeline.text(events, width: -5).split(separator: "\n").allSatisfy { $0.count <= UpdaterTimeline.widthRange.lowerBound })
        #expect(UpdaterTimeline.text(events, width: Int.max).split(separator: "\n").allSatisfy { $0.count <= UpdaterTimeline.widthRange.upperBound })
        #expect(UpdaterTimeline.text([]).split(separator: "\n").count == 1)
    }

    @Test func aRecordedFailureReproducesAndAPassingRunDoesNot() throws {
        let run = try shrunkFailure()
        let fuzzer = try UpdaterFuzzer(subject: BackgroundDiffUpdater.subject)
        let failure = try #require(run.failure)
        let again = fuzzer.reproduce(script: run.script, schedule: run.schedule, expecting: failure)
        #expect(again.reproduced)
        #expect(again.summary == "reproduced: batch-valid at step \(failure.step)")
        // Expecting another step: the same property, but not reproduced.
        var later = failure
        later.step += 1
        #expect(!fuzzer.reproduce(script: run.script, schedule: run.schedule, expecting: later).reproduced)
        // One request alone cannot race: nothing breaks.
        let single = try UpdaterScript(versions: Array(run.script.versions.prefix(2)), requestTimes: [0])
        let calm = fuzzer.reproduce(script: single, schedule: [], expecting: failure)
        #expect(calm.run.failure == nil)
        #expect(!calm.reproduced)
        #expect(calm.summary.hasPrefix("passed"))
    }
}
