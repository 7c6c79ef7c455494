import DiffLabCore
import DiffLabJSON
import DiffLabPlatform
import Dispatch

/// What a fuzzing run does.
///
/// A test suite fuzzes its own engine in a few lines (swift-testing):
///
/// ```swift
/// @Test func myEngineKeepsItsPromises() {
///     let report = runFuzzer(FuzzOptions(inputs: 3_000, seed: 42, subjects: [FuzzSubject(MyEngine())]))
///     for failure in report.contractFailures {
///         Issue.record("\(failure)\n\(failure.regressionJSON)")  // save it for `difflab replay`
///     }
/// }
/// ```
public struct FuzzOptions: Sendable {
    /// Stop after this many seconds (`nil`: no time limit).
    public var seconds: Double?
    /// Stop after this many generated inputs (`nil`: no limit).
    public var inputs: Int?
    /// The run's seed: input `i` is generated from a seed derived from it, so runs replay.
    public var seed: UInt64
    /// The engines (or variants) under test, pairing- or result-level.
    public var subjects: [FuzzSubject]
    /// The properties checked on every input.
    public var properties: [Property]
    /// The largest list size of the small-list schedule; sizes grow from 1 to this and start
    /// over.
    public var maxSize: Int
    /// The largest size of the periodic large lists (every ``largeEvery``-th input); `0` (or a
    /// value not above ``maxSize``) turns them off. Default 2,000: past every engine's budgets
    /// and fast paths (myers sets one-sided identifiers aside only once its direct search
    /// exceeds 4·√(n+m)+16 steps, from about 120 items on).
    public var largeSize = 2_000
    /// One input in this many is a large list (default 1,024): on this machine that spends about
    /// a fifth of a run's time on large lists and keeps most inputs small for shrinking speed.
    public var largeEvery = 1_024
    /// The element kinds the lists are presented as (default: all of them); each input draws one.
    public var elements: [FuzzElementKind] = FuzzElementKind.allCases
    /// Pairs of lists to start from (`difflab fuzz --seeds-from-trace`): the first inputs are the
    /// seeds themselves, one each; after them every other input is a seed with the generator's
    /// mutations applied to its new list, the rest generated as without seeds. Empty by default.
    public var seeds: [FuzzSeed] = []
    /// Worker threads.
    public var workers: Int
    /// The most candidates the shrinker may try per failure.
    public var shrinkBudget: Int
    /// The most seconds the shrinker may spend on one failure (default 60), and it never runs past
    /// the end of a timed run (``seconds``): an engine that hangs until its time limit on every
    /// candidate must not wedge the run. A failure whose shrinking was cut short is reported as
    /// shrunk so far.
    public var shrinkSeconds = 60.0
    /// Stop once a failure has been found and shrunk.
    public var stopAtFirstFailure = false
    /// The index of the first input (default 0): a campaign resumed after a crash of its process
    /// goes on from the input after the one that crashed. ``inputs`` stays a limit on the index.
    package var firstInput = 0
    /// Pairs not checked, as ``checkKey(subject:property:)``: the pairs that crashed or hung in an
    /// earlier process of the same campaign.
    package var skipping: Set<CheckKey> = []
    /// Failures already found (their ``FuzzFailure/key``), by an earlier process of the same
    /// campaign: not reported or shrunk again.
    package var known: Set<String> = []
    /// Told what each worker is about to check, so that a supervising process can name (and
    /// replay) the check during which this process crashed or hung.
    package var watcher: (any FuzzWatcher)?

    /// One subject × property pair, by their indices in ``subjects`` and ``properties``.
    package struct CheckKey: Hashable, Sendable {
        /// The subject's index.
        package var subject: Int
        /// The property's index.
        package var property: Int
    }

    /// The key of one subject × property pair in ``skipping``.
    package static func checkKey(subject: Int, property: Int) -> CheckKey { CheckKey(subject: subject, property: property) }

    /// Options; by default every shipped engine (``FuzzSubject/builtIns``) and every property,
    /// sizes up to 24, two workers.
    public init(
        seconds: Double? = nil, inputs: Int? = nil, seed: UInt64 = 1,
        subjects: [FuzzSubject] = FuzzSubject.builtIns,
        properties: [Property] = Property.allCases, maxSize: Int = 24, workers: Int = 2, shrinkBudget: Int = 20_000
    ) {
        self.seconds = seconds
        self.inputs = inputs
        self.seed = seed
        self.subjects = subjects
        self.properties = properties
        self.maxSize = maxSize
        self.workers = workers
        self.shrinkBudget = shrinkBudget
    }

    /// The documented range of ``seconds`` for `difflab fuzz --seconds`: 0.001 to 31,536,000 (a
    /// year).
    public static let allowedSeconds = 0.001...31_536_000.0
    /// The documented range of ``inputs`` for `difflab fuzz --cases`: 1 to 1,000,000,000.
    public static let allowedInputs = 1...1_000_000_000
    /// The documented range of ``maxSize`` for `difflab fuzz --max-size`: 1 to 10,000 (the
    /// properties include quadratic oracles; larger lists test nothing new, only slower).
    public static let allowedMaxSize = 1...10_000
    /// The documented range of ``workers`` for `difflab fuzz --workers`: 1 to 256.
    public static let allowedWorkers = 1...256
    /// The documented range of ``largeSize`` for `difflab fuzz --large-size`: 0 to 10,000.
    public static let allowedLargeSize = 0...10_000
    /// The documented range of ``largeEvery`` for `difflab fuzz --large-every`: 2 to 1,000,000.
    public static let allowedLargeEvery = 2...1_000_000

    /// The list size for input `index`.
    ///
    /// Small lists: the size grows by one every 64 inputs, from 1 to ``maxSize``, then starts
    /// over. Every ``largeEvery``-th input (index ≡ −1) is a large list instead, its size drawn
    /// log-uniformly from just above ``maxSize`` (at least 100) to ``largeSize``, from the input's
    /// seed, so runs replay.
    package func size(ofInput index: Int) -> Int {
        guard isLarge(index) else { return 1 + (index / 64) % max(maxSize, 1) }
        let low = Double(min(max(maxSize + 1, 100), largeSize))
        let high = Double(largeSize)
        let fraction = Double(seed(ofInput: index) >> 11) / Double(1 << 53)
        return min(largeSize, max(Int(low), Int((low * Double.pow(high / low, fraction)).rounded())))
    }

    /// Whether input `index` is one of the periodic large lists.
    package func isLarge(_ index: Int) -> Bool {
        let every = max(largeEvery, 2)
        return largeSize > maxSize && index % every == every - 1
    }

    /// The choice source of input `index`: its seed's generator, after the choice that picks a
    /// seed or generation when there are ``seeds`` (see ``FuzzCase/draw(_:maxSize:elements:seeds:)``).
    package func source(ofInput index: Int) -> DataSource {
        guard !seeds.isEmpty else { return DataSource(seed: seed(ofInput: index)) }
        // The seeds as they are first: the pick, then zeros (no mutation, one section each, no
        // corruption, the first element kind).
        if index < seeds.count { return DataSource(replaying: [UInt64(index + 1)]) }
        let pick = index % 2 == 0 ? UInt64(1 + (index / 2) % seeds.count) : 0
        return DataSource(seed: seed(ofInput: index), prefix: [pick])
    }

    /// The input that `source` decodes to at list size `size`, under these options' element kinds
    /// and seeds.
    package func input(_ source: inout DataSource, size: Int) -> FuzzCase {
        FuzzCase.draw(&source, maxSize: max(size, 1), elements: elements, seeds: seeds)
    }

    /// The seed of input `index`.
    package func seed(ofInput index: Int) -> UInt64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15))
        return mixer.next()
    }
}

/// Watches a run's checks: told, before each, which input (its choice sequence and size) and
/// which subject × property (indices into ``FuzzOptions/subjects`` and
/// ``FuzzOptions/properties``) a worker checks, including every candidate the shrinker tries.
/// Called on the worker's thread; it must be cheap and must not block.
package protocol FuzzWatcher: Sendable {
    /// Worker `worker` starts on input `index`, generated from `choices` at list size `size`.
    func input(worker: Int, index: Int, choices: [UInt64], size: Int)
    /// Worker `worker` starts checking `property` on `subject` of its current input.
    func check(worker: Int, subject: Int, property: Int)
    /// Worker `worker` is done with `input` (a periodic large list when `large`), after `checks`
    /// checks; it checks nothing until its next ``input(worker:index:choices:size:)``.
    func finished(worker: Int, input: FuzzCase, large: Bool, checks: Int)
    /// Worker `worker` found `failure` (a new ``FuzzFailure/key``): called once as found and once
    /// more when it is shrunk, so that a supervisor keeps it, shrunk as far as it got, even when
    /// this process dies or hangs later. The last call for a key is the failure's record.
    func found(worker: Int, failure: FuzzFailure)
}

/// A failure found by the fuzzer, shrunk: the counterexample, what failed, and how to replay it.
///
/// Replay it with `reproduce(_:size:property:subject:)` (``choices`` at ``size``), or save
/// ``regressionJSON`` as a file that `difflab replay` and ``RegressionCase/init(json:)`` read.
public struct FuzzFailure: Sendable, CustomStringConvertible {
    /// The property that failed.
    public var property: Property
    /// The subject it failed on.
    public var subject: String
    /// What failed, as the property reports it for the shrunk input.
    public var failure: PropertyFailure
    /// The shrunk input.
    public var input: FuzzCase
    /// The choice sequence the first shrinking stage left, and the size it decodes at. The
    /// second stage (`shrinkStructurally(_:budget:stillFails:)`) may have shrunk ``input``
    /// further; ``input`` is what replays.
    public var choices: [UInt64]
    /// The list size the input was generated at.
    public var size: Int
    /// The seed of the original input.
    public var seed: UInt64
    /// Items in the original input's lists (old + new), before shrinking.
    public var originalItems: Int
    /// Items in the shrunk input's lists (old + new).
    public var shrunkItems: Int { input.old.count + input.new.count }
    /// Inputs generated up to and including the one that failed.
    public var inputsToFind: Int
    /// Candidates the shrinker tried.
    public var shrinkAttempts: Int
    /// Seconds from the start of the run until the failing input was checked (before shrinking).
    public var secondsToFind = 0.0

    /// A failure from its parts (a supervising process rebuilds the failures its campaign process
    /// found, and makes those of the checks that crashed or hung it).
    package init(
        property: Property, subject: String, failure: PropertyFailure, input: FuzzCase, choices: [UInt64], size: Int,
        seed: UInt64, originalItems: Int, inputsToFind: Int, shrinkAttempts: Int, secondsToFind: Double
    ) {
        self.property = property
        self.subject = subject
        self.failure = failure
        self.input = input
        self.choices = choices
        self.size = size
        self.seed = seed
        self.originalItems = originalItems
        self.inputsToFind = inputsToFind
        self.shrinkAttempts = shrinkAttempts
        self.secondsToFind = secondsToFind
    }

    /// The failure's signature (`property/subject/detail`).
    public var signature: String { failure.signature }
    /// What failed, in words.
    public var message: String { failure.message }
    /// Whether the input is outside the engine's contract (it repeats an identifier and the engine
    /// does not promise duplicates). Shrinking keeps this: a failure found on unique identifiers
    /// shrinks to unique identifiers, one found on duplicates to duplicates.
    public var outsideContract: Bool { failure.outsideContract }
    /// The saved form of the failure, naming its engine (``subject``).
    public var regression: RegressionCase { RegressionCase(self) }
    /// What tells failures apart in a run's report: the signature, and whether the input was
    /// outside the engine's contract.
    package var key: String { failure.key }
    /// The regression file's text, as `difflab fuzz` saves it and `difflab replay` reads it.
    public var regressionJSON: String { regression.json.serialized(pretty: true) + "\n" }

    /// The signature, message, shrunk lists and replay information, on a few lines.
    public var description: String {
        """
        \(failure)
          old: \(input.old)
          new: \(input.new)
          shrunk from \(originalItems) to \(shrunkItems) items; seed \(seed), size \(size), choices \(choices)
        """
    }
}

/// Progress of a run, for a live display.
public struct FuzzProgress: Sendable {
    /// Inputs generated so far.
    public var inputs: Int
    /// Checks run so far: one property on one subject for one input (both move strategies).
    public var checks: Int
    /// Distinct failures found so far, inside and outside the engines' contracts (as
    /// ``FuzzReport/failures``).
    public var failures: Int
    /// Of ``failures``, those on inputs outside an engine's contract (as
    /// ``FuzzReport/outsideContract``): reported, but not a failed run.
    public var outsideContract: Int
    /// Failures inside the engines' contracts: broken promises (as ``FuzzReport/contractFailures``).
    public var contractFailures: Int { failures - outsideContract }
    /// Seconds since the start.
    public var seconds: Double
    /// The list size being generated now.
    public var size: Int

    /// Progress from its figures.
    package init(inputs: Int, checks: Int, failures: Int, outsideContract: Int, seconds: Double, size: Int) {
        self.inputs = inputs
        self.checks = checks
        self.failures = failures
        self.outsideContract = outsideContract
        self.seconds = seconds
        self.size = size
    }
}

/// The outcome of a run.
public struct FuzzReport: Sendable {
    /// Inputs generated.
    public var inputs: Int
    /// Checks run (one property × one subject × one input).
    public var checks: Int
    /// Wall-clock seconds.
    public var seconds: Double
    /// Distinct failures (by signature and contract), shrunk, in the order found.
    public var failures: [FuzzFailure]
    /// Inputs checked, by the element kind they were presented as.
    public var inputsByKind: [FuzzElementKind: Int] = [:]
    /// Inputs checked that were periodic large lists (``FuzzOptions/largeEvery``).
    public var largeInputs = 0
    /// The most items (old + new) of any input checked.
    public var largestInput = 0

    /// A report from its figures.
    package init(
        inputs: Int, checks: Int, seconds: Double, failures: [FuzzFailure], inputsByKind: [FuzzElementKind: Int] = [:],
        largeInputs: Int = 0, largestInput: Int = 0
    ) {
        self.inputs = inputs
        self.checks = checks
        self.seconds = seconds
        self.failures = failures
        self.inputsByKind = inputsByKind
        self.largeInputs = largeInputs
        self.largestInput = largestInput
    }

    /// Inputs per second (0 for a run that took no measurable time).
    public var inputsPerSecond: Double { seconds > 0 ? Double(inputs) / seconds : 0 }

    /// The failures inside the engines' contracts: broken promises. A run passes when this is
    /// empty; `difflab fuzz` exits with status 1 only for these.
    public var contractFailures: [FuzzFailure] { failures.filter { !$0.outsideContract } }
    /// The failures on inputs outside an engine's contract (duplicate identifiers for an engine
    /// that does not promise them): reported and saved so the behaviour is known, printed as
    /// "outside the engine's contract", but not a failed run.
    public var outsideContract: [FuzzFailure] { failures.filter(\.outsideContract) }
}

/// Regenerates the input for `choices` at `size` and checks `property` on `subject`.
///
/// - Returns: the failure and the choices the generator consumed, or `nil` when it passes.
package func reproduce(
    _ choices: [UInt64], size: Int, property: Property, subject: FuzzSubject,
    elements: [FuzzElementKind] = FuzzElementKind.allCases, seeds: [FuzzSeed] = []
) -> (failure: PropertyFailure, input: FuzzCase, consumed: [UInt64])? {
    var source = DataSource(replaying: choices)
    let input = FuzzCase.draw(&source, maxSize: size, elements: elements, seeds: seeds)
    guard let failure = property.check(input, subject) else { return nil }
    return (failure, input, source.choices)
}

/// Runs the properties on generated inputs until the time or input limit, shrinking every new
/// failure (one per signature, counted apart inside and outside the contract) to a minimal
/// counterexample.
///
/// Shrinking keeps the signature and the contract marking: a candidate counts only when it fails
/// the same way on an input that is, like the original, inside (or outside) the engine's contract.
/// An engine that throws ``EngineFailure`` fails with `engine-failed/<subject>/<kind>` and is
/// shrunk like any failure.
///
/// - Parameters:
///   - options: the run's limits, seed, subjects, properties, sizes and workers.
///   - progress: called about four times a second from a worker thread, and once more
///     with the run's totals before it returns.
public func runFuzzer(_ options: FuzzOptions, progress: @escaping @Sendable (FuzzProgress) -> Void = { _ in }) -> FuzzReport {
    struct Shared {
        var nextInput = 0
        var checks = 0
        var failures: [FuzzFailure] = []
        var signatures: Set<String>
        var lastReport = 0.0
        var byKind: [FuzzElementKind: Int] = [:]
        var large = 0
        var largest = 0

        func progress(seconds: Double, size: Int) -> FuzzProgress {
            FuzzProgress(
                inputs: nextInput, checks: checks, failures: failures.count, outsideContract: failures.count { $0.outsideContract },
                seconds: seconds, size: size)
        }
    }
    let shared = Locked(Shared(signatures: options.known))
    let start = monotonicNow()
    let workers = max(options.workers, 1)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
        while true {
            let elapsed = monotonicNow() - start
            if let seconds = options.seconds, elapsed >= seconds { return }
            let index: Int? = shared.withLock { state in
                if state.nextInput < options.firstInput { state.nextInput = options.firstInput }
                if let limit = options.inputs, state.nextInput >= limit { return nil }
                if options.stopAtFirstFailure && !state.failures.isEmpty { return nil }
                state.nextInput += 1
                return state.nextInput - 1
            }
            guard let index else { return }
            let size = options.size(ofInput: index)
            let seed = options.seed(ofInput: index)
            var source = options.source(ofInput: index)
            let input = options.input(&source, size: size)
            let watcher = options.watcher
            watcher?.input(worker: worker, index: index, choices: source.choices, size: size)
            var checks = 0
            checking: for (subjectIndex, subject) in options.subjects.enumerated() {
                for (propertyIndex, property) in options.properties.enumerated() {
                    // A slow engine (one that hangs until its time limit) must not keep a timed run
                    // going: the checks left on this input are not run, and not counted.
                    if let seconds = options.seconds, monotonicNow() - start >= seconds { break checking }
                    if !options.skipping.isEmpty
                        && options.skipping.contains(FuzzOptions.checkKey(subject: subjectIndex, property: propertyIndex))
                    {
                        continue
                    }
                    checks += 1
                    watcher?.check(worker: worker, subject: subjectIndex, property: propertyIndex)
                    guard let failure = property.check(input, subject) else { continue }
                    let isNew = shared.withLock { $0.signatures.insert(failure.key).inserted }
                    guard isNew else { continue }
                    let foundAt = monotonicNow() - start
                    // A provisional record, unshrunk: kept by a supervisor should this process die
                    // or hang while shrinking (the shrunk record below replaces it).
                    var found = FuzzFailure(
                        property: property, subject: subject.name, failure: failure, input: input, choices: source.choices,
                        size: size, seed: seed, originalItems: input.old.count + input.new.count, inputsToFind: index + 1,
                        shrinkAttempts: 0, secondsToFind: foundAt)
                    watcher?.found(worker: worker, failure: found)
                    var shrinkDeadline = monotonicNow() + options.shrinkSeconds
                    if let seconds = options.seconds { shrinkDeadline = min(shrinkDeadline, start + seconds) }
                    let (shrunk, attempts) = shrink(source.choices, budget: options.shrinkBudget) { candidate in
                        guard monotonicNow() < shrinkDeadline else { return nil }
                        watcher?.input(worker: worker, index: index, choices: candidate, size: size)
                        watcher?.check(worker: worker, subject: subjectIndex, property: propertyIndex)
                        guard
                            let again = reproduce(
                                candidate, size: size, property: property, subject: subject, elements: options.elements, seeds: options.seeds),
                            again.failure.signature == failure.signature,
                            again.failure.outsideContract == failure.outsideContract
                        else { return nil }
                        return again.consumed
                    }
                    // Nothing shrunk: the original failure stands (no extra call of a slow engine).
                    watcher?.input(worker: worker, index: index, choices: shrunk, size: size)
                    watcher?.check(worker: worker, subject: subjectIndex, property: propertyIndex)
                    let final =
                        shrunk == source.choices
                        ? nil : reproduce(shrunk, size: size, property: property, subject: subject, elements: options.elements, seeds: options.seeds)
                    // Then the input itself: items removed with the indices that name them renumbered.
                    var shrunkInput = final?.input ?? input
                    var shrunkFailure = final?.failure ?? failure
                    // Each candidate is one check for the watcher (its clock restarts), under the
                    // choices of the input it was cut from.
                    let structural = shrinkStructurally(shrunkInput, budget: max(0, options.shrinkBudget - attempts)) { candidate in
                        guard monotonicNow() < shrinkDeadline else { return false }
                        watcher?.check(worker: worker, subject: subjectIndex, property: propertyIndex)
                        guard let again = property.check(candidate, subject) else { return false }
                        return again.signature == failure.signature && again.outsideContract == failure.outsideContract
                    }
                    watcher?.check(worker: worker, subject: subjectIndex, property: propertyIndex)
                    if structural.input != shrunkInput, let again = property.check(structural.input, subject) {
                        shrunkInput = structural.input
                        shrunkFailure = again
                    }
                    // The input's other checks run on the input itself again.
                    watcher?.input(worker: worker, index: index, choices: source.choices, size: size)
                    found.failure = shrunkFailure
                    found.input = shrunkInput
                    found.choices = shrunk
                    found.shrinkAttempts = attempts + structural.attempts
                    shared.withLock { $0.failures.append(found) }
                    watcher?.found(worker: worker, failure: found)
                }
            }
            let large = options.isLarge(index)
            let items = input.old.count + input.new.count
            watcher?.finished(worker: worker, input: input, large: large, checks: checks)
            let report: FuzzProgress? = shared.withLock { state in
                state.checks += checks
                state.byKind[input.elements, default: 0] += 1
                if large { state.large += 1 }
                state.largest = max(state.largest, items)
                let now = monotonicNow() - start
                guard worker == 0, now - state.lastReport >= 0.25 else { return nil }
                state.lastReport = now
                return state.progress(seconds: now, size: size)
            }
            if let report { progress(report) }
        }
    }
    let seconds = monotonicNow() - start
    let (report, last) = shared.withLock { state in
        (
            FuzzReport(
                inputs: state.nextInput, checks: state.checks, seconds: seconds, failures: state.failures,
                inputsByKind: state.byKind, largeInputs: state.large, largestInput: state.largest),
            state.progress(seconds: seconds, size: options.size(ofInput: max(state.nextInput - 1, 0)))
        )
    }
    // The last figures, so that a display ends on the run's totals.
    progress(last)
    return report
}

/// The list size the libFuzzer target decodes inputs at (its seeds are written at the same size).
package let fuzzTargetMaxSize = 16

/// The (engine, property) pairs the libFuzzer target checks, one per input: every shipped engine
/// (``FuzzSubject/builtIns``) × every property, engine-major.
package let fuzzTargetChecks: [(subject: FuzzSubject, property: Property)] = FuzzSubject.builtIns.flatMap { subject in
    Property.allCases.map { (subject, $0) }
}

/// The body of the `difflab-fuzz` target: the first byte picks one (engine, property) pair of
/// ``fuzzTargetChecks`` (modulo their count), the rest decode as a choice sequence into an input
/// (lists up to ``fuzzTargetMaxSize``, any element kind), and that one property is checked on that
/// one engine.
///
/// One check per execution, not all of them (6 engines × 7 properties): libFuzzer learns which bytes reach which code from the
/// coverage of each execution, and a cheap execution lets it run thousands per second. Every
/// pair is reached, since libFuzzer mutates the first byte like any other.
///
/// - Returns: the failure and the input, or `nil`.
/// - Complexity: one property check on lists of at most ``fuzzTargetMaxSize`` items.
package func checkFuzzerInput(_ bytes: [UInt8]) -> (failure: PropertyFailure, input: FuzzCase)? {
    let pick = fuzzTargetChecks[Int(bytes.first ?? 0) % fuzzTargetChecks.count]
    var source = DataSource(bytes: Array(bytes.dropFirst()))
    let input = FuzzCase.generator(maxSize: fuzzTargetMaxSize).generate(&source)
    guard let failure = pick.property.check(input, pick.subject) else { return nil }
    return (failure, input)
}

/// The bytes of libFuzzer seed `index` of a run seeded `seed`: a selector byte (`index` modulo the
/// number of ``fuzzTargetChecks``, so consecutive seeds start on every pair) and the byte
/// encoding of the input ``FuzzOptions/seed(ofInput:)`` generates.
package func fuzzTargetSeed(_ index: Int, options: FuzzOptions) -> [UInt8] {
    var source = DataSource(seed: options.seed(ofInput: index))
    _ = FuzzCase.generator(maxSize: fuzzTargetMaxSize).generate(&source)
    return [UInt8(index % fuzzTargetChecks.count)] + source.byteEncoding
}
