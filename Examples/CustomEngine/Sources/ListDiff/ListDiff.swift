// A stand-in with the module layout of the ListDiff library (github.com/lxcid/ListDiff): a module
// named `ListDiff` whose namespace is the enum `List`. It exists so that this package's tests prove
// that `import DiffLab` does not shadow that module name (DiffLab's type `ListDiff` once did, and a
// user had to put `typealias LD = ListDiff.List` in a separate file). None of the library's code.

/// The namespace, named as in the library.
public enum List {
    /// A marker the test reads through the qualified name `ListDiff.List`.
    public static let qualifiedName = "ListDiff.List"
}
