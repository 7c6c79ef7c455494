/// A run's timeline as text, for a terminal or a log: the main thread's lanes (main, app, layout,
/// timers) in a left column, the background lanes (serial queues, the global queue) in a right
/// one, one event a line with its step number and virtual time, the event's notes under it, and
/// the step that broke a property marked `✗`.
///
/// ```
///  step   time  main thread                       background
///     1  0.000  app: start: the view shows v0 (2 items)
///     2  0.000  app: app requests v1 (3 items)
///     3  0.000                                    background: diff v0→v1
/// ✗   9  0.000  main: apply v0→v2
///               · ✗ batch-valid: Invalid update: invalid number of items in section 0. …
/// ```
///
/// `difflab updaters` prints each finding's shrunk run so; a library user can print one too
/// (`print(UpdaterTimeline.text(run.events, failure: run.failure))`).
public enum UpdaterTimeline {
    /// The narrowest and widest text ``text(_:failure:width:maxEvents:)`` makes.
    public static let widthRange = 40...1_000

    /// `events` as text, no line wider than `width` characters (clamped to ``widthRange``).
    ///
    /// Each event is a line in its column (``UpdaterEvent/onMain``: the main thread's on the
    /// left), its lane's name before its label; each note follows on a line of its own, `· `
    /// first. Text too long for its column wraps at spaces (a word longer than the column is cut
    /// into pieces). The event at `failure`'s step is marked `✗`; a failure at the end (step 0)
    /// marks the last event. When `failure` is given, a last line states it.
    ///
    /// A time that is not finite or beyond 10^12 seconds prints as `?` (a timeline read from a
    /// damaged file still prints).
    ///
    /// A run of more than `maxEvents` events (at least 2; a run that hit its step budget takes
    /// thousands) prints its first and last `maxEvents / 2`, and between them a line saying how
    /// many steps are not shown; the failing event is always among those shown.
    ///
    /// - Complexity: O(total length of the labels and notes of the events shown), plus O(events).
    public static func text(_ events: [UpdaterEvent], failure: UpdaterFailure? = nil, width: Int = 100, maxEvents: Int = 400) -> String {
        let width = min(max(width, widthRange.lowerBound), widthRange.upperBound)
        let failingIndex: Int? = failure.flatMap { failure in
            failure.step > 0 ? events.firstIndex { $0.step == failure.step } : (events.isEmpty ? nil : events.count - 1)
        }
        let stepWidth = max(4, String(events.map(\.step).max() ?? 0).count)
        let times = events.map { seconds($0.time) }
        let timeWidth = max(4, times.map(\.count).max() ?? 0)
        // "✗ " or "  ", the step, two spaces, the time, two spaces.
        let lead = 2 + stepWidth + 2 + timeWidth + 2
        let columns = max(10, width - lead - 2)
        let mainWidth = columns / 2
        let backgroundWidth = columns - mainWidth
        let backgroundStart = lead + mainWidth + 2
        var lines: [String] = []
        lines.append(
            padded("  " + leftPadded("step", stepWidth) + "  " + leftPadded("time", timeWidth) + "  " + "main thread", backgroundStart)
                + "background")
        let half = max(1, maxEvents / 2)
        for (index, event) in events.enumerated() {
            if events.count > 2 * half && index >= half && index < events.count - half && index != failingIndex {
                if index == half || index - 1 == failingIndex {
                    let hidden = (index..<(events.count - half)).prefix { $0 != failingIndex }.count
                    lines.append(String(repeating: " ", count: lead) + "… \(hidden) steps not shown")
                }
                continue
            }
            let start = event.onMain ? lead : backgroundStart
            let columnWidth = event.onMain ? mainWidth : backgroundWidth
            let indent = String(repeating: " ", count: start)
            let head =
                (index == failingIndex ? "✗ " : "  ") + leftPadded(String(event.step), stepWidth) + "  " + leftPadded(times[index], timeWidth) + "  "
            let body = wrap(event.lane + ": " + event.label, width: columnWidth, continuation: "  ")
            for (k, piece) in body.enumerated() {
                lines.append(k == 0 ? padded(head, start) + piece : indent + piece)
            }
            for note in event.notes {
                for (k, piece) in wrap(note, width: columnWidth - 2, continuation: "").enumerated() {
                    lines.append(indent + (k == 0 ? "· " : "  ") + piece)
                }
            }
        }
        if let failure {
            lines += wrap("✗ " + failure.description, width: width, continuation: "  ")
        }
        return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n") + "\n"
    }

    /// `seconds` with three decimals (`0.300`), `?` when not finite or beyond 10^12.
    package static func seconds(_ time: Double) -> String {
        guard time.isFinite, abs(time) < 1e12 else { return "?" }
        let milliseconds = Int((abs(time) * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return (time < 0 && milliseconds > 0 ? "-" : "") + "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    static func leftPadded(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// `text` in lines of at most `width` characters (at least 1), broken at spaces; a word
    /// longer than a line is cut. Lines after the first start with `continuation`. Line breaks in
    /// `text` count as spaces (a label never breaks the layout).
    package static func wrap(_ text: String, width: Int, continuation: String) -> [String] {
        let width = max(width, continuation.count + 1)
        var lines: [String] = []
        var line = ""
        for whole in text.split(whereSeparator: { $0 == " " || $0.isNewline }) {
            var word = whole[...]
            while !word.isEmpty {
                let separator = line.isEmpty ? (lines.isEmpty ? "" : continuation) : " "
                if line.count + separator.count + word.count <= width {
                    line += separator + word
                    break
                }
                if line.isEmpty {
                    // A word longer than a whole line: as much as fits, the rest on the next.
                    let room = width - separator.count
                    lines.append(separator + word.prefix(room))
                    word = word.dropFirst(room)
                } else {
                    lines.append(line)
                    line = ""
                }
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.isEmpty ? [""] : lines
    }
}

extension UpdaterRun {
    /// The run's timeline as text (``UpdaterTimeline/text(_:failure:width:maxEvents:)``), its failing step
    /// marked.
    ///
    /// - Complexity: O(total length of the events' labels and notes).
    public func timeline(width: Int = 100, maxEvents: Int = 400) -> String {
        UpdaterTimeline.text(events, failure: failure, width: width, maxEvents: maxEvents)
    }
}
