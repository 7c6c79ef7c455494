/// IGListKit's adaptive coalescing intervals (`IGListAdapterUpdater`'s `minInterval`,
/// `intervalIncrement` and `maxInterval`), in seconds.
public struct CoalescingIntervals: Sendable, Hashable {
    /// The interval after a quiet spell.
    public var minimum: Double
    /// Added to the interval each time an update arrives within it.
    public var increment: Double
    /// The longest interval.
    public var maximum: Double

    /// Intervals; see the properties.
    public init(minimum: Double, increment: Double, maximum: Double) {
        self.minimum = minimum
        self.increment = increment
        self.maximum = maximum
    }
}

/// IGListKit's adaptive coalescer (`IGListUpdateCoalescer`): an update more than the current
/// interval after the start of the last one starts at once and resets the interval to the
/// minimum; one within it is delayed to the end of the interval, which then grows by the
/// increment up to the maximum; updates arriving while one is delayed join it.
package struct CoalescingClock: Sendable {
    package let intervals: CoalescingIntervals
    package private(set) var interval: Double
    private var lastStart: Double?

    package init(_ intervals: CoalescingIntervals) {
        self.intervals = intervals
        interval = intervals.minimum
    }

    /// An update requested at `now`, with none waiting: the delay before it starts (0: now, and
    /// the clock takes `now` as its start; otherwise the caller reports the start with
    /// ``started(at:)``).
    package mutating func delay(requestAt now: Double) -> Double {
        guard let lastStart, now - lastStart <= interval else {
            interval = intervals.minimum
            self.lastStart = now
            return 0
        }
        let delay = max(0, interval - (now - lastStart))
        interval = min(interval + intervals.increment, intervals.maximum)
        // Exactly at the end of the interval: it starts now, after the interval grew (IGListKit
        // schedules it with no delay).
        if delay == 0 { self.lastStart = now }
        return delay
    }

    /// The delayed update starts at `now`.
    package mutating func started(at now: Double) { lastStart = now }
}

/// How an IGListKit adapter updater is configured: where it diffs, whether it coalesces, and when
/// it falls back to a full reload. The policy lab's policies are these configurations
/// (`DiffPolicy.updaterConfiguration(…)` in DiffLabBench).
///
/// Sources: IGListKit's reference (https://instagram.github.io/IGListKit/):
/// `IGListAdaptiveDiffingExperimentConfig` ("If both item counts are under this number, we'll run
/// the diffing on the main thread": `maxItemCountToRunOnMain`),
/// `IGListAdaptiveCoalescingExperimentConfig` (`minInterval`: "Start coalescing if the last update
/// was within this interval"; `intervalIncrement`: "If we need to coalesce, increase the interval
/// by this much for next time"; `maxInterval`: "the slowest an update can wait") and
/// `IGListExperimentReloadDataFallback` ("fallback to reloadData when too many update operations").
///
/// ``validate()`` checks a configuration made from user input.
public struct IGListUpdaterConfiguration: Sendable, Hashable {
    /// Where an update is diffed.
    public enum Diffing: Sendable, Hashable {
        /// Synchronously on the main queue.
        case main
        /// On a background queue, applied on main.
        case background
        /// IGListKit's adaptive diffing: on main when the larger of the two lists has fewer than
        /// `maxItemCountToRunOnMain` items, else in the background.
        case adaptive(maxItemCountToRunOnMain: Int)
    }

    /// Where updates are diffed.
    public var diffing: Diffing
    /// IGListKit's adaptive coalescing (its intervals), or `nil`: every update starts at once.
    public var coalescing: CoalescingIntervals?
    /// IGListKit's `allowsReloadingOnTooManyUpdates`: an update with more changes than this (the
    /// diff's inserts, deletes, updates and moves) is applied as a full reload; `nil`: never.
    public var reloadThreshold: Int?

    /// A configuration; by default IGListKit's defaults: diff on main, no coalescing, no reload fallback.
    public init(diffing: Diffing = .main, coalescing: CoalescingIntervals? = nil, reloadThreshold: Int? = nil) {
        self.diffing = diffing
        self.coalescing = coalescing
        self.reloadThreshold = reloadThreshold
    }

    /// The range of each coalescing interval, in seconds.
    public static let intervalRange: ClosedRange<Double> = 0...60

    /// - Throws: ``UpdaterInputError`` naming the first field out of range: a negative
    ///   `maxItemCountToRunOnMain` or `reloadThreshold`, a coalescing interval that is not finite
    ///   and in ``intervalRange``, or a `maxInterval` below `minInterval`.
    public func validate() throws(UpdaterInputError) {
        if case .adaptive(let limit) = diffing, limit < 0 {
            throw UpdaterInputError(field: "maxItemCountToRunOnMain", expected: "0 or more items", found: "\(limit)")
        }
        if let reloadThreshold, reloadThreshold < 0 {
            throw UpdaterInputError(field: "reloadThreshold", expected: "0 or more changes", found: "\(reloadThreshold)")
        }
        guard let coalescing else { return }
        for (field, value) in [("minInterval", coalescing.minimum), ("intervalIncrement", coalescing.increment), ("maxInterval", coalescing.maximum)]
        {
            guard value.isFinite, Self.intervalRange.contains(value) else {
                throw UpdaterInputError(field: field, expected: "a finite number of seconds in 0...60", found: "\(value)")
            }
        }
        guard coalescing.maximum >= coalescing.minimum else {
            throw UpdaterInputError(field: "maxInterval", expected: "at least minInterval (\(coalescing.minimum))", found: "\(coalescing.maximum)")
        }
    }

    /// Whether a diff between lists of `fromCount` and `toCount` items runs on the main queue.
    public func diffsOnMain(fromCount: Int, toCount: Int) -> Bool {
        switch diffing {
        case .main: true
        case .background: false
        case .adaptive(let limit): max(fromCount, toCount) < limit
        }
    }

    /// Whether an update of `changes` changes is applied as a full reload.
    public func reloads(changes: Int) -> Bool { reloadThreshold.map { changes > $0 } ?? false }
}

/// The state machine of IGListKit's adapter updater, shared by every place DiffLab runs it: the
/// updater model the scheduler checks (``IGListAdapterUpdaterModel``), the policy lab's
/// simulation in virtual time and its real-thread run. One piece of code, so the verdict and the
/// timing describe the same updater.
///
/// One update (IGListKit's transaction) is under way at a time. A request that arrives before the
/// update under way has started its diff joins it (its target becomes the newest version); one
/// that arrives later waits, with any others, for the next update, which starts when the current
/// one is finished and diffs from the version then shown across all their versions. Under
/// coalescing, IGListKit's coalescer (``CoalescingClock``) also holds a request back, and requests
/// arriving while it is held join it. An update diffed on main has not started until its
/// main-queue task runs (``startMainDiff(_:)``); one diffed in the background starts at once.
///
/// `Request` is what the driver keeps per request (a completion, a request time); it is handed
/// back with the update that carried it.
package struct IGListUpdateMachine<Request> {
    /// An update: the version shown before it, the version it shows, the requests it carries.
    package struct Update {
        /// Tells updates apart: a task of an earlier update never touches a later one.
        package var id: Int
        /// The version on screen when it was installed: the diff starts there.
        package var from: Int
        /// The newest version it carries: the diff ends there.
        package var to: Int
        /// The requests it carries, oldest first.
        package var requests: [Request]
        /// Whether its diff has started (until then, new requests join it).
        package var started: Bool
        /// Whether it is diffed on the main queue.
        package var onMain: Bool
    }

    /// What the driver does after a request.
    package enum Step {
        /// Nothing: the request joined an update, or waits.
        case none
        /// Launch this update: queue its diff on main, or start it in the background.
        case launch(Update)
        /// Arm the coalescer's timer: after this many seconds, call ``timerFired(at:itemCount:)``.
        case armTimer(seconds: Double)
    }

    package let configuration: IGListUpdaterConfiguration
    /// The version on screen: the next update diffs from it.
    package private(set) var shown: Int
    package private(set) var transaction: Update?
    /// Requests that arrived once the update under way had started: the next update.
    package private(set) var waiting: (to: Int, requests: [Request])?
    /// Coalescing: the requests held until the coalescer's timer fires.
    package private(set) var pending: (to: Int, requests: [Request])?
    var clock: CoalescingClock?
    var installed = 0

    /// A machine showing version `shown`.
    package init(configuration: IGListUpdaterConfiguration, shown: Int = 0) {
        self.configuration = configuration
        self.shown = shown
        clock = configuration.coalescing.map(CoalescingClock.init)
    }

    /// Nothing is under way, waiting or held.
    package var isIdle: Bool { transaction == nil && waiting == nil && pending == nil }

    mutating func install(to version: Int, _ requests: [Request], itemCount: (Int) -> Int) -> Update {
        installed += 1
        let onMain = configuration.diffsOnMain(fromCount: itemCount(shown), toCount: itemCount(version))
        let update = Update(id: installed, from: shown, to: version, requests: requests, started: !onMain, onMain: onMain)
        transaction = update
        return update
    }

    /// The app asks for `version` at `now` (seconds, on the coalescer's clock).
    ///
    /// - Parameter itemCount: the item count of a version, for adaptive diffing.
    package mutating func request(_ version: Int, _ request: Request, at now: Double, itemCount: (Int) -> Int) -> Step {
        if let started = transaction?.started {
            // Joined in place: a burst of k requests costs O(k), not O(k²) copies.
            if started {
                if waiting == nil { waiting = (version, []) }
                waiting!.to = version
                waiting!.requests.append(request)
            } else {
                transaction!.to = version
                transaction!.requests.append(request)
            }
            return .none
        }
        guard var clock else { return .launch(install(to: version, [request], itemCount: itemCount)) }
        if pending != nil {
            pending!.to = version
            pending!.requests.append(request)
            return .none
        }
        let delay = clock.delay(requestAt: now)
        self.clock = clock
        guard delay > 0 else { return .launch(install(to: version, [request], itemCount: itemCount)) }
        pending = (version, [request])
        return .armTimer(seconds: delay)
    }

    /// The coalescer's timer fired at `now`: the held update, to launch, if any.
    package mutating func timerFired(at now: Double, itemCount: (Int) -> Int) -> Update? {
        guard let held = pending, transaction == nil else { return nil }
        pending = nil
        clock?.started(at: now)
        return install(to: held.to, held.requests, itemCount: itemCount)
    }

    /// Update `id`'s main-queue task runs: from now on requests wait for the next update. Returns
    /// the update as it now stands (its target grown by the requests that joined), or `nil` when
    /// it is no longer under way.
    package mutating func startMainDiff(_ id: Int) -> Update? {
        guard var update = transaction, update.id == id else { return nil }
        update.started = true
        transaction = update
        return update
    }

    /// Update `id` is over: applied (the view shows its target) or dropped. Returns it, and the
    /// next update to launch if requests were waiting (installed at once, so no request can
    /// start one in between); with `installNext` false (a run that is over), the waiting
    /// requests are dropped instead.
    package mutating func finish(
        _ id: Int, applied: Bool, installNext: Bool = true, itemCount: (Int) -> Int
    ) -> (finished: Update?, next: Update?) {
        guard let update = transaction, update.id == id else { return (nil, nil) }
        transaction = nil
        if applied { shown = update.to }
        guard let next = waiting else { return (update, nil) }
        waiting = nil
        guard installNext else { return (update, nil) }
        return (update, install(to: next.to, next.requests, itemCount: itemCount))
    }

    /// Drops the requests held by the coalescer (a run that is over); returns them.
    package mutating func dropPending() -> [Request] {
        defer { pending = nil }
        return pending?.requests ?? []
    }
}

extension IGListUpdateMachine: Sendable where Request: Sendable {}
extension IGListUpdateMachine.Update: Sendable where Request: Sendable {}
extension IGListUpdateMachine.Step: Sendable where Request: Sendable {}
