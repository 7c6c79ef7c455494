// Arrays of plain values written in place: the one way DiffLab's hot paths get their buffers,
// fresh for a one-off call and reused by a workspace that keeps them between calls.

/// An array of `count` elements, each written by `body` (which must write every one). `body`
/// runs even when `count` is 0 (with an empty buffer): callers nest the next array's fill in it.
///
/// Never `Array(unsafeUninitializedCapacity: 0)`: that one writes the count into the shared
/// empty array's storage, which ThreadSanitizer reports as a race between concurrent diffs.
///
/// - Complexity: one allocation (none when `count` is 0), and what `body` does.
@inlinable
package func _filled<Element>(_ count: Int, _ body: (UnsafeMutableBufferPointer<Element>) -> Void) -> [Element] {
    if count == 0 {
        body(UnsafeMutableBufferPointer(start: nil, count: 0))
        return []
    }
    return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
        body(buffer)
        initialized = count
    }
}

/// Makes `array` hold `count` elements that `body` then writes, every one, in place: its storage
/// is reused when it is large enough, else it is replaced by a fresh array of exactly `count`
/// (as ``_filled(_:_:)``: no element is written twice).
///
/// The elements `body` sees are left from earlier use (or uninitialized, for a fresh array), so
/// `body` must write each before anything reads it. For plain values only (`Element` has no
/// references), which the function checks.
///
/// When `array` shares its storage with another array (a caller kept a result built from it),
/// the first change copies it, as any array does: reuse pays only while the workspace holds the
/// only reference.
///
/// - Complexity: O(1) besides `body` when the storage is reused and `count` is at most the
///   array's length; else O(`count`) to grow, with at most one allocation.
@inlinable
package func _reuse<Element>(
    _ array: inout [Element], count: Int, filler: Element, _ body: (UnsafeMutableBufferPointer<Element>) -> Void
) {
    precondition(_isPOD(Element.self), "_reuse holds plain values only")
    if count == 0 {
        if !array.isEmpty { array.removeAll(keepingCapacity: true) }
        body(UnsafeMutableBufferPointer(start: nil, count: 0))
        return
    }
    if array.capacity < count {
        array = []
        array = _filled(count, body)
        return
    }
    if array.count > count {
        array.removeLast(array.count &- count)
    } else if array.count < count {
        array.append(contentsOf: repeatElement(filler, count: count &- array.count))
    }
    array.withUnsafeMutableBufferPointer { body($0) }
}

/// Empties `array` for appending, keeping its storage when it is the only holder of it (a shared
/// storage is left to its other holder, and appends start a new one).
///
/// - Complexity: O(1) for plain values.
@inlinable
package func _emptied<Element>(_ array: inout [Element]) {
    if !array.isEmpty { array.removeAll(keepingCapacity: true) }
}

/// Takes `value` out of `storage`, leaving an empty value there, so the taker holds the only
/// reference (a workspace lends its buffers to one call this way).
///
/// - Complexity: O(1).
@inlinable
package func _take<Value>(_ storage: inout Value, leaving empty: Value) -> Value {
    var value = empty
    swap(&value, &storage)
    return value
}
