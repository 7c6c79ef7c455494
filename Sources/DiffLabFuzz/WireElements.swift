import DiffLabProcess

// The fuzzer's element kinds as ``WireElement``s, so a campaign can send its inputs to an engine
// in another process (`ProcessEngine`).

extension FuzzItem: WireElement {
    /// ``FuzzItem/id``.
    public var wireIdentifier: WireValue? { .integer(id) }
    /// ``FuzzItem/content``.
    public var wireContent: Int { content }
}

extension CollidingItem: WireElement {
    /// The item's id (the hash collisions are the lab's business, not the engine's).
    public var wireIdentifier: WireValue? { .integer(item.id) }
    /// The item's content.
    public var wireContent: Int { item.content }
}

extension FuzzString: WireElement {
    /// `nil`: the identifiers are non-ASCII strings compared by canonical equivalence, so the lab
    /// numbers them (see `String`'s conformance).
    public var wireIdentifier: WireValue? { diffIdentifier.wireIdentifier }
    /// The item's content.
    public var wireContent: Int { item.content }
}

extension FuzzObject: WireElement {
    /// The item's id.
    public var wireIdentifier: WireValue? { .integer(item.id) }
    /// ``FuzzObject/content`` (under identity comparison the lab sends instance numbers).
    public var wireContent: Int { content }
}
