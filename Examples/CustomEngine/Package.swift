// swift-tools-version: 6.0
// An example package that uses DiffLab as a library: two engines of its own, fuzzed by DiffLab in
// its tests and selectable by name in its own copy of the `difflab` command line; and an app's own
// list updater, checked by DiffLab's updater fuzzer in its tests.
import PackageDescription

let package = Package(
    name: "CustomEngine",
    // At least DiffLab's own (a dependency's platforms bound its dependents').
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "CustomEngine", targets: ["CustomEngine"]),
        .library(name: "ChatFeed", targets: ["ChatFeed"]),
        .executable(name: "custom-difflab", targets: ["custom-difflab"]),
    ],
    dependencies: [
        // DiffLab itself, two levels up. The name makes `package: "DiffLab"` work whatever the
        // checkout folder is called (a path dependency is otherwise named after its folder).
        .package(name: "DiffLab", path: "../..")
    ],
    targets: [
        // The engines. They need only the vocabulary and the built-in engines, but `DiffLab`
        // (everything, re-exported) keeps the example's imports to one line.
        .target(name: "CustomEngine", dependencies: [.product(name: "DiffLab", package: "DiffLab")]),
        // A chat feed's list updaters, the racy one and the fixed one: app code, so only the pure
        // Swift layers it needs (they link on iOS), and any engine handed in.
        .target(
            name: "ChatFeed",
            dependencies: [
                .product(name: "DiffLabCore", package: "DiffLab"),
                .product(name: "DiffLabBatch", package: "DiffLab"),
                .product(name: "DiffLabUpdaters", package: "DiffLab"),
            ]),
        // `difflab` with both engines registered next to the built-ins.
        .executableTarget(
            name: "custom-difflab",
            dependencies: ["CustomEngine", "ChatFeed", .product(name: "DiffLab", package: "DiffLab")]),
        // A module named like the ListDiff library, for the test that DiffLab does not shadow it.
        .target(name: "ListDiff"),
        .testTarget(
            name: "CustomEngineTests",
            // custom-difflab too: the spawned-worker isolation test starts it as its worker.
            dependencies: ["CustomEngine", "ChatFeed", "ListDiff", "custom-difflab", .product(name: "DiffLab", package: "DiffLab")]),
    ],
    swiftLanguageModes: [.v6]
)
