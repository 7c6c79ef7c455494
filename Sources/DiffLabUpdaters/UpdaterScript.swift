import DiffLabCore

/// What the app does in one run: the data on screen at the start, the versions it asks for and
/// when. With a schedule (``ScheduleStrategy``) it fixes a run completely.
public struct UpdaterScript: Hashable, Sendable {
    /// Version 0 (on screen at the start), then the versions requested, numbered 1, 2, … in order.
    public var versions: [ListVersion]
    /// When each request arrives, seconds from the start (ascending): `requestTimes[k]` is when
    /// version `k + 1` is asked for.
    public var requestTimes: [Double]

    /// A script; see the properties.
    ///
    /// - Throws: ``UpdaterInputError`` when the versions are not numbered 0, 1, 2, … or the times
    ///   are not one per request, finite, ≥ 0 and ascending.
    public init(versions: [ListVersion], requestTimes: [Double]) throws(UpdaterInputError) {
        guard !versions.isEmpty else { throw UpdaterInputError(field: "versions", expected: "at least version 0", found: "none") }
        for (k, version) in versions.enumerated() where version.number != k {
            throw UpdaterInputError(field: "versions[\(k)].number", expected: "\(k)", found: "\(version.number)")
        }
        guard requestTimes.count == versions.count - 1 else {
            throw UpdaterInputError(field: "requestTimes", expected: "\(versions.count - 1) times, one per request", found: "\(requestTimes.count)")
        }
        var previous = 0.0
        for (k, time) in requestTimes.enumerated() {
            guard time.isFinite, time >= previous else {
                throw UpdaterInputError(field: "requestTimes[\(k)]", expected: "a finite time ≥ \(previous)", found: "\(time)")
            }
            previous = time
        }
        self.versions = versions
        self.requestTimes = requestTimes
    }

    /// A script taken as it is, for callers that check it themselves (a findings file's reader
    /// checks the script it read through ``init(versions:requestTimes:)``).
    package init(unchecked versions: [ListVersion], requestTimes: [Double]) {
        self.versions = versions
        self.requestTimes = requestTimes
    }

    /// The number of requests.
    public var requestCount: Int { versions.count - 1 }

    /// A random script from `seed`: an initial list of up to `settings.maxItems` items in one
    /// section, then 1 to `settings.maxRequests` versions, each up to `settings.maxEdits` random
    /// edits (inserts, deletes, moves, content changes) from the one before and arriving 0 to
    /// `settings.maxGap` seconds after it.
    ///
    /// - Complexity: O(requests · (items + edits)).
    /// Settings out of their ranges are clamped into them (a non-finite gap counts as 0).
    public static func random(seed: UInt64, settings unclamped: UpdaterFuzzSettings) -> UpdaterScript {
        var settings = unclamped
        settings.maxRequests = min(
            max(settings.maxRequests, UpdaterFuzzSettings.maxRequestsRange.lowerBound), UpdaterFuzzSettings.maxRequestsRange.upperBound)
        settings.maxItems = min(
            max(settings.maxItems, 0), UpdaterFuzzSettings.maxItemsRange.upperBound, UpdaterFuzzSettings.maxScriptItems / (settings.maxRequests + 1))
        settings.maxEdits = min(max(settings.maxEdits, 0), UpdaterFuzzSettings.maxEditsRange.upperBound)
        settings.maxGap = settings.maxGap.isFinite ? min(max(settings.maxGap, 0), UpdaterFuzzSettings.maxGapRange.upperBound) : 0
        var random = SplitMix64(seed: seed)
        func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(random.next(upTo: UInt64(bound - 1))) }
        var nextID = 0
        var items: [UpdaterItem] = []
        for _ in 0..<below(settings.maxItems + 1) {
            items.append(UpdaterItem(id: nextID))
            nextID += 1
        }
        var versions = [ListVersion(number: 0, data: UpdaterData([.init(id: 0, items: items)]))]
        var times: [Double] = []
        var time = 0.0
        let requests = 1 + below(settings.maxRequests)
        for number in 1...requests {
            for _ in 0..<below(settings.maxEdits + 1) {
                switch below(4) {
                case 0 where items.count < settings.maxItems || items.isEmpty:
                    items.insert(UpdaterItem(id: nextID), at: below(items.count + 1))
                    nextID += 1
                case 1 where !items.isEmpty:
                    items.remove(at: below(items.count))
                case 2 where items.count > 1:
                    let item = items.remove(at: below(items.count))
                    items.insert(item, at: below(items.count + 1))
                case 3 where !items.isEmpty:
                    items[below(items.count)].content += 1
                default:
                    break
                }
            }
            versions.append(ListVersion(number: number, data: UpdaterData([.init(id: 0, items: items)])))
            time += Double(below(1001)) / 1000 * settings.maxGap
            times.append(time)
        }
        return UpdaterScript(unchecked: versions, requestTimes: times)
    }

    /// The same script without request `number` (1-based): later versions are renumbered.
    func removingRequest(_ number: Int) -> UpdaterScript {
        var versions = versions
        var times = requestTimes
        versions.remove(at: number)
        times.remove(at: number - 1)
        for k in versions.indices { versions[k].number = k }
        return UpdaterScript(unchecked: versions, requestTimes: times)
    }

    /// The same script with item `id` gone from every version.
    func removingItem(_ id: Int) -> UpdaterScript {
        var versions = versions
        for k in versions.indices {
            for s in versions[k].data.sections.indices { versions[k].data.sections[s].items.removeAll { $0.id == id } }
        }
        return UpdaterScript(unchecked: versions, requestTimes: requestTimes)
    }

    /// Every item identifier in the script, ascending.
    var itemIDs: [Int] { Set(versions.flatMap(\.allItems).map(\.id)).sorted() }
}

/// An input out of range: the field, what was expected and what was found.
public struct UpdaterInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field (`--requests`, `versions[2].number`).
    public var field: String
    /// What it must be.
    public var expected: String
    /// What it was.
    public var found: String

    /// An error on `field`.
    public init(field: String, expected: String, found: String) {
        self.field = field
        self.expected = expected
        self.found = found
    }

    /// `requests: expected 1...10000, found 0`.
    public var description: String { "\(field): expected \(expected), found \(found)" }
}

/// The limits of a fuzzing campaign over updaters; each number has a documented range, checked by
/// ``validate()``.
public struct UpdaterFuzzSettings: Hashable, Sendable {
    /// Most requests in a run: 1...10,000.
    public var maxRequests: Int
    /// Most items in a version: 0...100,000.
    public var maxItems: Int
    /// Most edits between two versions: 0...100,000.
    public var maxEdits: Int
    /// Longest pause between two requests, in seconds: 0...60.
    public var maxGap: Double
    /// Most steps a run may take before it counts as endless (``UpdaterProperty/ends``): 1...10,000,000.
    public var stepBudget: Int

    /// The most items a script may hold, all versions together: (``maxRequests`` + 1) ×
    /// ``maxItems`` must not exceed 1,000,000 (what a findings file holds).
    public static let maxScriptItems = 1_000_000

    /// The ranges.
    public static let maxRequestsRange = 1...10_000
    public static let maxItemsRange = 0...100_000
    public static let maxEditsRange = 0...100_000
    public static let maxGapRange: ClosedRange<Double> = 0...60
    public static let stepBudgetRange = 1...10_000_000

    /// Small runs that reach the races quickly: 6 requests, 8 items, 4 edits, gaps to 0.2 s
    /// (inside IGListKit's coalescing intervals), 20,000 steps.
    public static let standard = UpdaterFuzzSettings(maxRequests: 6, maxItems: 8, maxEdits: 4, maxGap: 0.2, stepBudget: 20_000)

    /// Settings; see the properties. ``validate()`` checks them.
    public init(maxRequests: Int, maxItems: Int, maxEdits: Int, maxGap: Double, stepBudget: Int) {
        self.maxRequests = maxRequests
        self.maxItems = maxItems
        self.maxEdits = maxEdits
        self.maxGap = maxGap
        self.stepBudget = stepBudget
    }

    /// - Throws: ``UpdaterInputError`` naming the first field out of its range.
    public func validate() throws(UpdaterInputError) {
        func check(_ field: String, _ value: Int, _ range: ClosedRange<Int>) throws(UpdaterInputError) {
            guard range.contains(value) else {
                throw UpdaterInputError(field: field, expected: "\(range.lowerBound)...\(range.upperBound)", found: "\(value)")
            }
        }
        try check("maxRequests", maxRequests, Self.maxRequestsRange)
        try check("maxItems", maxItems, Self.maxItemsRange)
        try check("maxEdits", maxEdits, Self.maxEditsRange)
        try check("stepBudget", stepBudget, Self.stepBudgetRange)
        guard maxGap.isFinite, Self.maxGapRange.contains(maxGap) else {
            throw UpdaterInputError(field: "maxGap", expected: "0...60 seconds", found: "\(maxGap)")
        }
        guard (maxRequests + 1) * maxItems <= Self.maxScriptItems else {
            throw UpdaterInputError(
                field: "maxItems",
                expected: "at most \(Self.maxScriptItems / (maxRequests + 1)) with \(maxRequests) requests (a script holds at most 1,000,000 items)",
                found: "\(maxItems)")
        }
    }
}
