// swift-tools-version: 6.0
// The arena: list-diffing libraries judged by DiffLab for UIKit validity and speed.
//
// Each library is a dependency the normal way, by URL, pinned to its latest release. Set
// DIFFLAB_ARENA_CHECKOUTS to a folder that holds a checkout of each (DifferenceKit, DeepDiff,
// Differ, RxDataSources, ListDiff; folder names as the packages are named) to build without a
// network: every library then comes from there. Nothing of the libraries is copied into this
// repository.
//
// Two libraries cannot be SwiftPM dependencies on Linux, so their sources are built here as
// targets of their own, from Vendor/<module>: links that Scripts/arena makes into the checkout
// (or into a clone at the release tag, made by Scripts/arena, when no checkout is given). The
// links are never committed.
// - ListDiff 0.2.0 (its latest release and last commit): its manifest has no swift-tools-version
//   line, which SwiftPM 6 reads as tools version 3.1 and refuses. The library is one file,
//   Sources/ListDiff.swift.
// - RxDataSources 5.0.2: its manifest requires RxSwift's product RxCocoa, which RxSwift's manifest
//   declares on Darwin only, so SwiftPM refuses the package on Linux ("product 'RxCocoa' required
//   by package 'rxdatasources' target 'RxDataSources' not found"). Its Differentiator module,
//   the diff, imports only Foundation: Sources/Differentiator.
import Foundation
import PackageDescription

/// A library: its package name, repository and release.
struct Library {
    var package: String
    var url: String
    var version: Version
}

let libraries = [
    Library(package: "DifferenceKit", url: "https://github.com/ra1028/DifferenceKit.git", version: "1.3.0"),
    Library(package: "DeepDiff", url: "https://github.com/onmyway133/DeepDiff.git", version: "2.3.3"),
    Library(package: "Differ", url: "https://github.com/tonyarnold/Differ.git", version: "1.4.5"),
]

let checkouts = ProcessInfo.processInfo.environment["DIFFLAB_ARENA_CHECKOUTS"].flatMap { $0.isEmpty ? nil : $0 }

let dependencies: [Package.Dependency] =
    [.package(name: "DiffLab", path: "../..")]
    + libraries.map { library in
        if let checkouts {
            return .package(name: library.package, path: "\(checkouts)/\(library.package)")
        }
        return .package(url: library.url, exact: library.version)
    }

let package = Package(
    name: "Arena",
    products: [
        .library(name: "ArenaEngines", targets: ["ArenaEngines"]),
        .executable(name: "difflab-arena", targets: ["difflab-arena"]),
    ],
    dependencies: dependencies,
    targets: [
        // Built from the checkouts' sources (see above), in the language mode they were written for.
        .target(name: "ListDiff", path: "Vendor/ListDiff", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(
            name: "Differentiator", path: "Vendor/Differentiator", exclude: ["Info.plist", "Differentiator.h"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(
            name: "ArenaEngines",
            dependencies: [
                .product(name: "DiffLab", package: "DiffLab"),
                .product(name: "DifferenceKit", package: "DifferenceKit"),
                "Differentiator",
                .product(name: "DeepDiff", package: "DeepDiff"),
                .product(name: "Differ", package: "Differ"),
                "ListDiff",
            ],
            swiftSettings: checkouts == nil ? [] : [.define("ARENA_LOCAL_CHECKOUTS")]),
        .executableTarget(
            name: "difflab-arena",
            dependencies: ["ArenaEngines", .product(name: "DiffLab", package: "DiffLab")]),
        .testTarget(
            name: "ArenaTests",
            dependencies: ["ArenaEngines", .product(name: "DiffLab", package: "DiffLab")]),
    ],
    swiftLanguageModes: [.v6]
)
