import DiffLabBench
import DiffLabJSON
import DiffLabProcess
import DiffLabResults

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The benchmark's element kinds and the `diff` command's JSON elements as ``WireElement``s, so
// `--engine-command` engines can be benchmarked and used by `difflab diff`. (They live here, on
// the one module that sees both the element types and the wire protocol; the fuzzer's element
// kinds conform in DiffLabFuzz.)

extension IntElement: WireElement {
    /// ``IntElement/id``.
    public var wireIdentifier: WireValue? { .integer(id) }
    /// ``IntElement/revision``.
    public var wireContent: Int { revision }
}

extension ModelElement: WireElement {
    /// The UUID's upper-case string.
    public var wireIdentifier: WireValue? { .string(id.uuidString) }
    /// The whole element (content equality is `==`, and paired elements share the identifier).
    public var wireContent: ModelElement { self }
}

extension ObjectElement: WireElement {
    /// ``ObjectElement/id`` when it is ASCII (see `String`'s conformance), else `nil`.
    public var wireIdentifier: WireValue? { id.wireIdentifier }
    /// ``ObjectElement/revision`` (used under equality comparison; under identity comparison the
    /// lab sends instance numbers).
    public var wireContent: Int { revision }
}

extension JSONElement: WireElement {
    /// A string or an integer in `Int`'s range as itself; `nil` for other numbers (the lab then
    /// numbers the request's identifiers, since `1.5` has no faithful integer or string form).
    public var wireIdentifier: WireValue? {
        switch id {
        case .string(let text): .string(text)
        case .integer(let value): .integer(value)
        default: nil
        }
    }
    /// The content, compared as JSON values.
    public var wireContent: JSONValue { content }
}
