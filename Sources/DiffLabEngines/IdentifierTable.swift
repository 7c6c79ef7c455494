import DiffLabCore

/// The one open-addressing table of identifiers that every hashing engine and the bench's hash
/// floor share: `hashmap`'s pairing, `myers`' interning, and `hash-floor`.
///
/// Each slot holds a distinct identifier, by a *key* that the caller resolves (an index into its
/// own lists, so the table stores no identifiers and no per-element heap objects), the upper 32
/// bits of the identifier's hash (its *tag*), and a caller's *payload* (`hashmap`: the head of an
/// identifier's chain of occurrences; `myers`: its symbol; the floor: nothing).
///
/// - Linear probing over a power-of-two capacity at most half full, so a probe ends at an empty
///   slot.
/// - Each identifier is hashed once per lookup (``hashAndTag(_:)``); a probe compares identifiers
///   only where the tags agree.
/// - `@inlinable` throughout: a caller gets it specialized for its element type and index width,
///   the slot array contiguous, the match test inlined.
///
/// Underscored and `package`: an implementation type of DiffLab's engines and bench, not API.
@usableFromInline
package struct _IdentifierTable<Key: FixedWidthInteger & SignedInteger, Payload> {
    /// One slot: `key` -1 when empty.
    @usableFromInline
    package struct Slot {
        /// The upper 32 bits of the identifier's hash.
        @usableFromInline package var tag: UInt32
        /// The caller's key of the identifier (an index into its lists), or -1 for an empty slot.
        @usableFromInline package var key: Key
        /// The caller's value for this identifier.
        @usableFromInline package var payload: Payload

        @inlinable
        package init(tag: UInt32, key: Key, payload: Payload) {
            self.tag = tag
            self.key = key
            self.payload = payload
        }
    }

    /// The slots, `capacity` of them.
    @usableFromInline package var slots: [Slot]
    /// `capacity - 1`: a hash masked by it is a home slot.
    @usableFromInline package let mask: Int

    /// A table for up to `count` distinct identifiers: the smallest power of two ≥ 16 and ≥ 2·count
    /// slots, each empty with `empty` as its payload.
    ///
    /// - Precondition: `count` ≥ 0 and 2·`count` fits an `Int` (callers pass list lengths).
    /// - Complexity: O(capacity).
    @inlinable
    package init(capacityFor count: Int, empty: Payload) {
        var capacity = 16
        while capacity < count &* 2 { capacity &<<= 1 }
        mask = capacity &- 1
        slots = [Slot](repeating: Slot(tag: 0, key: -1, payload: empty), count: capacity)
    }

    /// A table for up to `count` distinct identifiers, as ``init(capacityFor:empty:)``, in the
    /// storage of `storage`, which it takes (leaving it empty; give it back with
    /// ``returnStorage(to:)`` to reuse it on the next call).
    ///
    /// - Complexity: O(capacity); an allocation only when `storage` is too small.
    @inlinable
    package init(capacityFor count: Int, empty: Payload, reusing storage: inout [Slot]) {
        var capacity = 16
        while capacity < count &* 2 { capacity &<<= 1 }
        mask = capacity &- 1
        let emptySlot = Slot(tag: 0, key: -1, payload: empty)
        var slots = _take(&storage, leaving: [])
        _reuse(&slots, count: capacity, filler: emptySlot) { $0.initialize(repeating: emptySlot) }
        self.slots = slots
    }

    /// Hands the table's storage to `storage`, for the next ``init(capacityFor:empty:reusing:)``.
    ///
    /// - Complexity: O(1).
    @inlinable
    package consuming func returnStorage(to storage: inout [Slot]) {
        storage = slots
    }

    /// The number of slots.
    @inlinable package var capacity: Int { mask &+ 1 }

    /// `id`'s hash (the home slot comes from its low bits) and its tag (the upper 32 bits).
    ///
    /// - Complexity: one `hashValue`.
    @inlinable @inline(__always)
    package static func hashAndTag<ID: Hashable>(_ id: ID) -> (hash: Int, tag: UInt32) {
        let hash = id.hashValue
        return (hash, UInt32(truncatingIfNeeded: UInt64(bitPattern: Int64(hash)) &>> 32))
    }

    /// The slot that holds the identifier with `hash` and `tag` — `matches(key)` tells whether the
    /// identifier of an occupied slot's key is it — or else the empty slot where it would go.
    ///
    /// - Returns: the slot and whether it holds the identifier.
    /// - Complexity: O(1) expected at load ≤ ½; `matches` runs only on slots whose tag agrees.
    @inlinable @inline(__always)
    package static func find(
        _ slots: UnsafeMutableBufferPointer<Slot>, mask: Int, hash: Int, tag: UInt32, matches: (Key) -> Bool
    ) -> (slot: Int, found: Bool) {
        var s = hash & mask
        while true {
            let key = slots[s].key
            if key < 0 { return (s, false) }
            if slots[s].tag == tag && matches(key) { return (s, true) }
            s = (s &+ 1) & mask
        }
    }
}
