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
public struct ArenaFailure: ResultsRecord, Equatable {
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

    /// A failure; see the properties. Not checked: ``ArenaResults/init(json:source:path:)`` checks files.
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

    @_spi(Records) public static let blank = ArenaFailure(
        signature: "", property: "", scope: .flat, kind: .failure, outsideContract: false, duplicates: false, old: "", new: "", message: "")

    /// The declaration table (absent optional members left out). Unknown members are ignored.
    @_spi(Records) public static let fields: [RecordField<ArenaFailure>] = [
        .required("signature", \.signature, .text(atMost: ArenaLimits.line), "`property/engine/detail`"),
        .required("property", \.property, .text(atMost: ArenaLimits.name), "the property that failed"),
        .required("scope", \.scope, .cases(), "flat or sectioned input"),
        .required("kind", \.kind, .cases(), "a property failure, a crash or a hang"),
        .required("outsideContract", \.outsideContract, .bool, "whether the input is outside what the engine promises"),
        .required("duplicates", \.duplicates, .bool, "whether the shrunk input repeats an identifier"),
        .required("old", \.old, .text(atMost: ArenaLimits.text), "the shrunk old list, as the fuzzer prints it"),
        .required("new", \.new, .text(atMost: ArenaLimits.text), "the shrunk new list"),
        .required("message", \.message, .text(atMost: ArenaLimits.text), "what failed, in words"),
        .optional("elementKind", \.elementKind, .text(atMost: ArenaLimits.name), "the element kind the input was handed as"),
        .optional("batch", \.batch, .text(atMost: ArenaLimits.text), "the batch update the engine produced"),
        .optional("validBatch", \.validBatch, .text(atMost: ArenaLimits.text), "a valid batch update for the input"),
        .optional("replay", \.replay, .text(atMost: ArenaLimits.sentence), "how to replay the failure"),
    ]
}
