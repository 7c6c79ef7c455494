// swift-tools-version: 6.0
// DiffLab in an app's test target: the engines, the batch-update model and the fuzzer run in the
// test's own process, as they do in an iOS Simulator (no process is started, no file written).
// Built and tested by `swift test` here and by `xcodebuild test -scheme iOSFuzz` on a Mac (README.md).
import PackageDescription

let package = Package(
    name: "iOSFuzz",
    // DiffLab's own oldest systems (a dependency's platforms bound its dependents').
    platforms: [.macOS(.v15), .iOS(.v18)],
    // No products: the package is its scheme (`iOSFuzz`), which builds the targets below and what
    // they depend on, and tests iOSFuzzTests. CustomEngine's `custom-difflab` executable is not
    // among them: nothing here depends on it.
    dependencies: [
        // DiffLab itself, two levels up, named so `package: "DiffLab"` holds whatever the checkout
        // folder is called.
        .package(name: "DiffLab", path: "../.."),
        // The engines of the other example package, fuzzed here the same way as DiffLab's own, and
        // its chat feed's updater.
        .package(name: "CustomEngine", path: "../CustomEngine"),
    ],
    targets: [
        // The app's own code: a feed's items and the batch update it hands to UIKit. It needs the
        // vocabulary, an engine and the batch model only.
        .target(
            name: "Feed",
            dependencies: [
                .product(name: "DiffLabCore", package: "DiffLab"),
                .product(name: "DiffLabEngines", package: "DiffLab"),
                .product(name: "DiffLabBatch", package: "DiffLab"),
            ]),
        // The app's test target: the feed checked on fixed cases, every engine fuzzed in process, and
        // list updaters (DiffLab's hand-written one, CustomEngine's chat feed) fuzzed under DiffLab's
        // deterministic scheduler, in process too.
        .testTarget(
            name: "iOSFuzzTests",
            dependencies: [
                "Feed",
                .product(name: "DiffLabCore", package: "DiffLab"),
                .product(name: "DiffLabEngines", package: "DiffLab"),
                .product(name: "DiffLabBatch", package: "DiffLab"),
                .product(name: "DiffLabFuzz", package: "DiffLab"),
                .product(name: "DiffLabJSON", package: "DiffLab"),
                .product(name: "DiffLabUpdaters", package: "DiffLab"),
                .product(name: "CustomEngine", package: "CustomEngine"),
                .product(name: "ChatFeed", package: "CustomEngine"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
