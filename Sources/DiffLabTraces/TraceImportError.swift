/// Why an importer cannot make a trace: the input it could not read (a file, a line of a file, a
/// commit) and the problem, in one line (`difflab trace` exits 65 with it, or 66 for an input
/// that cannot be opened).
public struct TraceImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Whether the input could not be opened at all (a missing file or folder, git absent).
    public var isMissingInput: Bool
    /// The line: the input, then the problem.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String, missingInput: Bool = false) {
        self.description = description
        isMissingInput = missingInput
    }
}
