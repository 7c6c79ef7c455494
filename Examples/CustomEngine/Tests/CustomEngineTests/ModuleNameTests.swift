import DiffLab
import ListDiff
import Testing

/// DiffLab's public names must not shadow a module a user imports beside it. The ListDiff library's
/// module is `ListDiff` and its namespace `List`: with both imported, `ListDiff.List` must name the
/// library's enum. (DiffLab's type `ListDiff` made this line fail to compile; it is now `DiffLookup`.)
@Test func listDiffModuleIsNotShadowedByDiffLab() {
    #expect(ListDiff.List.qualifiedName == "ListDiff.List")
    // DiffLab's own lookup type, by its new name, in the same file.
    let lookup = HeckelEngine().diffLookup(from: [1, 2], to: [2, 3])
    #expect(lookup.oldIndex(for: 2) == 1)
    #expect(lookup.newIndex(for: 3) == 1)
}
