import DiffLabUpdaters

/// A run of an updater as a swim-lane SVG: one lane per lane name of the run (the main
/// thread's lanes — `app`, `main`, `layout`, `timers` — above, the background lanes — each
/// serial queue, `global` — below, in the order they first ran), the steps left to right, each
/// step a box in its lane labelled with what ran; the step that broke a property is marked in
/// red, and each box's `<title>` (a tooltip) holds its step, time, lane, whole label and notes.
///
/// Every text comes from a findings file, so it is hostile and bounded here: at most
/// ``maxSteps`` steps are drawn (a window that holds the failing step), at most ``maxLanes``
/// lanes (the rest share a last lane, `other lanes`), labels are cut to what their box holds,
/// tooltips to ``maxTooltip`` characters; control and bidirectional-override characters are
/// replaced (``Markdown/displayable(_:keepingLineBreaks:)``) and the markup is escaped by
/// ``SVGCanvas``. The output depends on its inputs only (no time, no randomness): the same run
/// gives byte-identical SVG.
package struct SwimLaneFigure: Sendable, Equatable {
    /// The figure's heading (cut to fit).
    package var title: String
    /// The run's timeline.
    package var events: [UpdaterEvent]
    /// The property the run breaks; `nil` for a run that broke nothing.
    package var failure: UpdaterFailure?

    /// The most steps drawn: 120 (a shrunk run has a few dozen; a run that never ends has its
    /// whole step budget).
    package static let maxSteps = 120
    /// The most lanes drawn: 16, the last of them `other lanes` when the run has more.
    package static let maxLanes = 16
    /// The most characters of a box's tooltip: 2,000.
    package static let maxTooltip = 2_000

    /// A figure of `events`, `failure` marked.
    package init(title: String, events: [UpdaterEvent], failure: UpdaterFailure?) {
        self.title = title
        self.events = events
        self.failure = failure
    }

    // Layout, in pixels.
    private static let padding = 10.0
    private static let laneLabelWidth = 150.0
    private static let columnWidth = 150.0
    private static let laneHeight = 62.0
    private static let fontSize = 10.0
    private static let noteSize = 9.0
    /// Lines of text in a box: the label (one or two), then notes.
    private static let linesPerBox = 4
    /// The most characters of a lane's name shown at the left.
    private static let laneNameLimit = 22

    /// The index in ``events`` of the step that broke the property: the event of the failure's
    /// step, or the last event for a failure found at the end (step 0), as the text timeline
    /// marks it; `nil` without a failure or when no event has that step.
    package var failingIndex: Int? {
        guard let failure else { return nil }
        return failure.step > 0 ? events.firstIndex { $0.step == failure.step } : (events.isEmpty ? nil : events.count - 1)
    }

    /// The events drawn: all of them when they are at most ``maxSteps``, else a window of
    /// ``maxSteps`` that holds the failing step (three quarters of the window before it), or the
    /// first ``maxSteps`` when there is none. O(1).
    package var drawn: Range<Int> {
        guard events.count > Self.maxSteps else { return events.indices }
        let wanted = (failingIndex ?? 0) - Self.maxSteps * 3 / 4
        let start = min(max(0, wanted), events.count - Self.maxSteps)
        return start..<(start + Self.maxSteps)
    }

    /// The lanes drawn, top to bottom: main-thread lanes first (`app`, `main`, `layout`,
    /// `timers`, then any other in the order it first ran), then background lanes in the order
    /// they first ran; at most ``maxLanes``, the last named `other lanes` when more ran.
    /// O(steps drawn × log lanes).
    package var lanes: [Lane] {
        let known = ["app", "main", "layout", "timers"]
        var seen: [String: Bool] = [:]
        var order: [(name: String, onMain: Bool)] = []
        for event in events[drawn] where seen[event.lane] == nil {
            seen[event.lane] = event.onMain
            order.append((event.lane, event.onMain))
        }
        let main = known.filter { seen[$0] == true } + order.filter { $0.onMain && !known.contains($0.name) }.map(\.name)
        let background = order.filter { !$0.onMain }.map(\.name)
        var lanes = main.map { Lane(name: $0, onMain: true) } + background.map { Lane(name: $0, onMain: false) }
        if lanes.count > Self.maxLanes {
            lanes = Array(lanes.prefix(Self.maxLanes - 1)) + [Lane(name: nil, onMain: false)]
        }
        return lanes
    }

    /// A lane of the figure.
    package struct Lane: Sendable, Equatable {
        /// The lane's name; `nil` for the lane that holds every lane beyond ``maxLanes``.
        package var name: String?
        /// Whether its work runs on the main thread (as its first step drawn says).
        package var onMain: Bool
    }

    /// The SVG document. - Complexity: O(steps drawn × (label and note lengths, bounded)).
    package func svg() -> String {
        let lanes = self.lanes
        let range = drawn
        let failing = failingIndex
        var row: [String: Int] = [:]
        for (index, lane) in lanes.enumerated() {
            if let name = lane.name { row[name] = index }
        }
        let otherRow = lanes.last?.name == nil ? lanes.count - 1 : nil

        let p = Self.padding
        let left = p + Self.laneLabelWidth
        let width = max(560, left + Double(range.count) * Self.columnWidth + p)
        let top = 78.0
        let lanesBottom = top + Double(lanes.count) * Self.laneHeight
        let height = lanesBottom + 44

        var canvas = SVGCanvas()
        canvas.text(PlotAxes.fitted(Self.shown(title), width: width - 2 * p, size: 15), p, 24, className: "heading")
        canvas.text(PlotAxes.fitted(Self.shown(subtitle(range: range)), width: width - 2 * p, size: 11), p, 42, className: "note")

        // Lane backgrounds and names; a heavier line between the main thread's lanes and the background's.
        for (index, lane) in lanes.enumerated() {
            let y = top + Double(index) * Self.laneHeight
            canvas.rect(PlotRect(x: p, y: y, width: width - 2 * p, height: Self.laneHeight), fill: index % 2 == 0 ? "#f6f7f9" : "#ffffff")
            let name = lane.name.map { Markdown.brief(Self.shown($0), Self.laneNameLimit) } ?? "other lanes"
            canvas.text(name, p + 6, y + 26, className: "title")
            let thread = lane.name == nil ? "(each box names its lane)" : lane.onMain ? "main thread" : "background"
            canvas.text(thread, p + 6, y + 40, className: "small")
            if index > 0 && lane.onMain != lanes[index - 1].onMain {
                canvas.line(p, y, width - p, y, stroke: "#555555", width: 1.5)
            }
        }
        canvas.line(left, top, left, lanesBottom, stroke: "#bbbbbb")

        // The failing step's column, behind the boxes.
        if let failing, range.contains(failing) {
            let x = left + Double(failing - range.lowerBound) * Self.columnWidth
            canvas.rect(PlotRect(x: x, y: top - 20, width: Self.columnWidth, height: lanesBottom - top + 20), fill: "#fbe3e3")
        }

        // Step numbers above, virtual times below (when they change).
        canvas.text("step", left - 6, top - 6, anchor: .end, className: "small")
        canvas.text("time (s)", left - 6, lanesBottom + 16, anchor: .end, className: "small")
        var previousTime: String?
        for index in range {
            let event = events[index]
            let x = left + Double(index - range.lowerBound) * Self.columnWidth
            let isFailing = index == failing
            canvas.text(
                (isFailing ? "✗ " : "") + String(event.step), x + Self.columnWidth / 2, top - 6, anchor: .middle,
                className: isFailing ? "title" : "small", color: isFailing ? "#b00020" : nil)
            let time = UpdaterTimeline.seconds(event.time)
            if time != previousTime {
                canvas.line(x, lanesBottom, x, lanesBottom + 5, stroke: "#888888")
                canvas.text(time, x + 3, lanesBottom + 16, className: "small")
                previousTime = time
            }
        }
        canvas.text(
            "Steps left to right, one column each; a time is shown where the virtual clock moved. Grey lines: what the step did to the view (every note in the box's tooltip).",
            left, lanesBottom + 34, className: "note")

        // The boxes.
        for index in range {
            let event = events[index]
            let lane = row[event.lane] ?? otherRow ?? 0
            let x = left + Double(index - range.lowerBound) * Self.columnWidth
            let y = top + Double(lane) * Self.laneHeight
            let isFailing = index == failing
            let box = PlotRect(x: x + 3, y: y + 4, width: Self.columnWidth - 6, height: Self.laneHeight - 8)
            canvas.beginGroup(title: tooltip(event, failing: isFailing))
            canvas.rect(
                box, fill: isFailing ? "#f6c4c4" : event.onMain ? "#d7e8f7" : "#fde6c8",
                stroke: isFailing ? "#b00020" : event.onMain ? "#4a8bc2" : "#d08c1a")
            if isFailing {
                canvas.rect(PlotRect(x: box.x + 1, y: box.y + 1, width: box.width - 2, height: box.height - 2), fill: "none", stroke: "#b00020")
            }
            let label = (row[event.lane] == nil ? Markdown.brief(Self.shown(event.lane), 16) + ": " : "") + Self.shown(event.label)
            let lines = Self.wrapped(label, width: Int((box.width - 8) / (Self.fontSize * 0.6)))
            for (k, line) in lines.enumerated() {
                canvas.text(line, box.x + 4, box.y + 13 + Double(k) * 12, size: Self.fontSize)
            }
            // As many notes as the box has room for, a line each, below the label.
            // (Measured against a generous 0.68 em a glyph: notes are full of capitals.)
            let noteWidth = (box.width - 8) * 0.6 / 0.68
            for (k, note) in event.notes.prefix(Self.linesPerBox - lines.count).enumerated() {
                canvas.text(
                    PlotAxes.fitted(Self.shown(note), width: noteWidth, size: Self.noteSize), box.x + 4,
                    box.y + 13 + Double(lines.count + k) * 12, size: Self.noteSize, color: "#555555")
            }
            canvas.endGroup()
        }
        return canvas.document(width: width, height: height, title: Markdown.brief(Self.shown(title), 300))
    }

    /// The line under the heading: the failure, and which steps are drawn when not all are.
    private func subtitle(range: Range<Int>) -> String {
        var parts: [String] = []
        if let failure {
            let marked = failingIndex == nil ? " (no step of the timeline has that number)" : ""
            parts.append("✗ " + Markdown.brief(failure.description, 400) + marked)
        }
        if range.count < events.count {
            parts.append("steps \(range.lowerBound + 1) to \(range.upperBound) of \(events.count) drawn")
        }
        if events.isEmpty { parts.append("the run has no steps") }
        return parts.joined(separator: " · ")
    }

    /// A box's tooltip: step, time, lane and thread, the label, then each note (at most 16),
    /// cut to ``maxTooltip`` characters.
    private func tooltip(_ event: UpdaterEvent, failing: Bool) -> String {
        var lines = [
            (failing ? "✗ " : "") + "step \(event.step) at \(UpdaterTimeline.seconds(event.time)) s, "
                + Markdown.brief(Self.shown(event.lane), 200) + (event.onMain ? " (main thread)" : " (background)"),
            Markdown.brief(Self.shown(event.label), 500),
        ]
        for note in event.notes.prefix(16) { lines.append("· " + Markdown.brief(Self.shown(note), 500)) }
        if event.notes.count > 16 { lines.append("… \(event.notes.count - 16) more notes") }
        return Markdown.brief(lines.joined(separator: "\n"), Self.maxTooltip)
    }

    /// `text` as a reader may see it (no control or bidirectional-override character), cut to
    /// 2,000 characters first so that a huge label costs nothing more.
    package static func shown(_ text: String) -> String {
        Markdown.displayable(Markdown.brief(text, 2_000), keepingLineBreaks: false)
    }

    /// `text` in at most two lines of at most `width` characters, broken at spaces as the text
    /// timeline breaks them (``UpdaterTimeline/wrap(_:width:continuation:)``: a word too long for
    /// a line is cut); `…` ends the second line when text is left over.
    package static func wrapped(_ text: String, width: Int) -> [String] {
        let width = max(4, width)
        var lines = UpdaterTimeline.wrap(text, width: width, continuation: "").filter { !$0.isEmpty }
        if lines.count > 2 {
            lines = [lines[0], String(lines[1].prefix(width - 1)) + "…"]
        }
        return lines
    }
}
