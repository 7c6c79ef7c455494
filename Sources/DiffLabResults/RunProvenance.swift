/// When, where and with what a run's results were made: the members every DiffLab results file
/// starts with (`createdAt`, `machine`, `toolchain`, `commit`), and the run's wall-clock
/// `seconds` and `dirty` flag in the files whose schema has them (bench and arena files).
///
/// One record for every file, written and read by the same code: a file type holds it as
/// `provenance`. Members a file's schema does not have are not written and read back as `nil`.
public struct RunProvenance: Sendable, Equatable {
    /// Unix seconds when the run was recorded, in ``FieldRange/unixTime``.
    public var createdAt: Int?
    /// Wall-clock seconds the run took, in ``FieldRange/runSeconds`` (bench and arena files).
    public var seconds: Double?
    /// The machine's description (CPU, cores, memory, kernel), in order.
    public var machine: [DisplayField]
    /// The Swift toolchain that built the run (`swift --version`'s first line).
    public var toolchain: String?
    /// The commit of DiffLab that ran (`null` in the file outside a checkout).
    public var commit: String?
    /// Whether tracked files had uncommitted changes (bench and arena files).
    public var dirty: Bool?

    /// A provenance; every member defaults to unknown. O(machine).
    public init(
        createdAt: Int? = nil, seconds: Double? = nil, machine: [DisplayField] = [], toolchain: String? = nil, commit: String? = nil,
        dirty: Bool? = nil
    ) {
        self.createdAt = createdAt
        self.seconds = seconds
        self.machine = machine
        self.toolchain = toolchain
        self.commit = commit
        self.dirty = dirty
    }
}

extension RunProvenance: ResultsRecord {
    @_spi(Records) public static let blank = RunProvenance()

    /// The declaration table, for a file whose schema has `seconds` and `dirty` (bench and arena
    /// files); `stamp` is the one for other files. `commit` is written as `null` when unknown.
    @_spi(Records) public static let fields: [RecordField<RunProvenance>] = [
        .optional("createdAt", \.createdAt, .int(.unixTime), "when the run was recorded, Unix seconds"),
        .optional("seconds", \.seconds, .double(.runSeconds), "wall-clock seconds the run took"),
        .defaulted("machine", \.machine, .display, default: [], written: .always, "the machine: CPU, cores, memory, kernel"),
        .optional("toolchain", \.toolchain, .string, "the Swift toolchain that built the run"),
        .optional("commit", \.commit, .string, absent: .null, "the commit of DiffLab that ran"),
        .optional("dirty", \.dirty, .bool, "whether tracked files had uncommitted changes"),
    ]

    /// The fields of a file whose schema has no `seconds` or `dirty` member.
    @_spi(Records) public static let stamp = fields.filter { !["seconds", "dirty"].contains($0.description.key) }
}
