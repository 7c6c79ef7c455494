import DiffLabJSON

/// Which input shape an arena failure was found on.
public enum ArenaScope: String, Sendable, Hashable, CaseIterable {
    /// One flat list (the batch update of one section).
    case flat
    /// Sectioned lists, checked stage by stage.
    case sectioned
}

/// How an arena failure showed itself.
public enum ArenaFailureKind: String, Sendable, Hashable, CaseIterable {
    /// A property did not hold (the engine answered, wrongly).
    case failure
    /// The engine's process crashed (a trap, a signal, a sanitizer report).
    case crash
    /// The engine did not answer within the time allowed.
    case hang
}

/// One failure the arena's fuzzer found on a contestant, with its shrunk counterexample (an
/// element of a contestant's `failures` array in a `difflab-arena/1` file).
///
/// The lists are written as the fuzzer prints them: `[0, 1:2]` is identifier 0 (content 0), then
/// identifier 1 with content 2.
public struct ArenaFailure: Sendable, Equatable {
    enum Key: String {
        case signature, property, scope, kind, outsideContract, duplicates, old, new, message, elementKind, batch, validBatch, replay
    }

    /// `property/engine/detail`, e.g. `batch-valid/listdiff/batch-malformed`; ``ArenaLimits/line``.
    public var signature: String
    /// The property that failed, e.g. `batch-valid`, `staged-valid`, `raw-sound`, `differential`,
    /// `metamorphic`, `sanitizer`, `deterministic`; ``ArenaLimits/name``.
    public var property: String
    /// Flat or sectioned input.
    public var scope: ArenaScope
    /// A property failure, a crash or a hang.
    public var kind: ArenaFailureKind
    /// Whether the input is outside what the engine promises (it repeats an identifier and the
    /// engine does not promise duplicates).
    public var outsideContract: Bool
    /// Whether the shrunk input repeats an identifier.
    public var duplicates: Bool
    /// The shrunk old list, as the fuzzer prints it; ``ArenaLimits/text``.
    public var old: String
    /// The shrunk new list; ``ArenaLimits/text``.
    public var new: String
    /// What failed, in words (for a batch update, UIKit's message); ``ArenaLimits/text``.
    public var message: String
    /// The element kind the input was handed to the engine as (`int`, `string`, …); ``ArenaLimits/name``.
    public var elementKind: String?
    /// The batch update the engine produced on the shrunk input; ``ArenaLimits/text``.
    public var batch: String?
    /// A valid batch update for the shrunk input (DiffLab's); ``ArenaLimits/text``.
    public var validBatch: String?
    /// How to replay the failure (a command line); ``ArenaLimits/sentence``.
    public var replay: String?

    /// A failure; see the properties. Not checked: ``ArenaResults/init(json:source:)`` checks files.
    public init(
        signature: String, property: String, scope: ArenaScope, kind: ArenaFailureKind, outsideContract: Bool, duplicates: Bool, old: String,
        new: String, message: String, elementKind: String? = nil, batch: String? = nil, validBatch: String? = nil, replay: String? = nil
    ) {
        self.signature = signature
        self.property = property
        self.scope = scope
        self.kind = kind
        self.outsideContract = outsideContract
        self.duplicates = duplicates
        self.old = old
        self.new = new
        self.message = message
        self.elementKind = elementKind
        self.batch = batch
        self.validBatch = validBatch
        self.replay = replay
    }

    /// The failure object (absent optional members are left out). O(size of the texts).
    public var json: JSONValue {
        var w = FieldWriter<Key>()
        w.set(.signature, signature)
        w.set(.property, property)
        w.set(.scope, scope.rawValue)
        w.set(.kind, kind.rawValue)
        w.set(.outsideContract, outsideContract)
        w.set(.duplicates, duplicates)
        w.set(.old, old)
        w.set(.new, new)
        w.set(.message, message)
        w.set(.elementKind, elementKind)
        w.set(.batch, batch)
        w.set(.validBatch, validBatch)
        w.set(.replay, replay)
        return w.json
    }

    /// Reads a failure object.
    ///
    /// - Parameters:
    ///   - json: the failure object.
    ///   - source: the file it comes from, for messages.
    ///   - path: the object's JSON path in its file, for messages (e.g. `contestants[1].failures[0]`).
    /// - Throws: ``ResultsError`` for a missing required member (all but `elementKind`, `batch`,
    ///   `validBatch` and `replay`), a member of the wrong type, a `scope` or `kind` that is not
    ///   one of the names listed, or text longer than its ``ArenaLimits``. Unknown members are ignored.
    /// - Complexity: O(size of the object).
    public init(json: JSONValue, source: String, path: String = "") throws(ResultsError) {
        try self.init(FieldReader<Key>(json, source: source, path: path))
    }

    init(_ row: FieldReader<Key>) throws(ResultsError) {
        self.init(
            signature: try row.requiredText(.signature, atMost: ArenaLimits.line),
            property: try row.requiredText(.property, atMost: ArenaLimits.name),
            scope: try row.requiredCase(.scope, ArenaScope.self), kind: try row.requiredCase(.kind, ArenaFailureKind.self),
            outsideContract: try row.requiredBool(.outsideContract), duplicates: try row.requiredBool(.duplicates),
            old: try row.requiredText(.old, atMost: ArenaLimits.text), new: try row.requiredText(.new, atMost: ArenaLimits.text),
            message: try row.requiredText(.message, atMost: ArenaLimits.text),
            elementKind: try row.optionalText(.elementKind, atMost: ArenaLimits.name),
            batch: try row.optionalText(.batch, atMost: ArenaLimits.text), validBatch: try row.optionalText(.validBatch, atMost: ArenaLimits.text),
            replay: try row.optionalText(.replay, atMost: ArenaLimits.sentence))
    }
}
