// swift-tools-version: 6.0
// DiffLab — a performance lab and fuzzing harness for list-diffing engines.
//
// Layers (no back-edges), drawn in one place: docs/architecture.md, whose table LayeringTests holds
// these targets and every `import` in Sources to.
//   DiffLabCore (vocabulary) ← DiffLabEngines (the built-in engines and their one table,
//     `BuiltInEngines`) ← DiffLabFuzz (property-based fuzzing, crash-isolated) ← DiffLabCLI ← difflab
//   DiffLabBatch (UIKit's batch-update model) is on DiffLabCore only: it takes any engine, and the
//     staged changeset's default engine lives in the umbrella module. DiffLabFuzz uses it.
//   DiffLabProcess (on DiffLabCore, DiffLabJSON and DiffLabFormatting): processes, cleanup on signals, forked
//     children, `ProcessEngine` and the difflab-engine/1 wire format. DiffLabFuzz isolates crashes
//     with it; the CLI starts workers and engines with it.
//   DiffLabBench (benchmarks, policy lab) sits beside DiffLabFuzz, on the engines, the batch model
//   (its `validate` cell times the validator) and DiffLabResults (its files).
//   DiffLabJSON and DiffLabFormatting (the one set of number, time, byte and date formatters, for
//   every layer that writes text for people) are leaf utilities. DiffLabResults (on DiffLabCore,
//   DiffLabBatch and DiffLabJSON) is the single home of DiffLab's own file schemas as typed records
//   (bench, policy, arena, mutation, gate, fuzz files, JUnit XML).
//   DiffLabGate (regression-gate statistics and verdicts) and DiffLabReport (markdown reports with
//   SVG plots) read measurements, not engines, through DiffLabResults; neither depends on the
//   other. The CLI drives them.
//   DiffLabCLI is the runner: the `difflab` command line as a library (`DiffLabRunner.main(engines:)`),
//   its commands declared once (options, parsing, help), with the engine registry (built from
//   `BuiltInEngines`); it re-exports DiffLabProcess. DiffLabDev holds DiffLab's own maintenance commands (mutate, coverage) for
//   the `difflab-dev` executable, so a user's runner does not carry them.
//   DiffLabTraces (on DiffLabCore, DiffLabEngines, DiffLabJSON, DiffLabProcess and DiffLabResults) imports
//   recorded traces of a list's versions (difflab-trace/1, a DiffLabResults record): folders of snapshots, an
//   app's JSON lines, git history; and checks myers against an exact LCS and git on them (the real-data oracle).
//   DiffLab is the umbrella product: `import DiffLab` re-exports every public module.
//   DiffLabPlatform is the one layer between DiffLab and the operating system: the only module that
//     imports a C library module (Glibc or Darwin; Musl is not supported), with a Darwin branch for everything that
//     differs. DiffLabCore, DiffLabEngines, DiffLabBatch, DiffLabJSON and DiffLabFormatting use no C library module
//     and not DiffLabPlatform either (LayeringTests), so an iOS test target links them as they are.
import PackageDescription

let package = Package(
    name: "DiffLab",
    // The oldest Apple systems whose Swift runtime has what DiffLab uses: metadata for function
    // types with a typed `throws` (FuzzSubject's stored engine closures; Swift 6.0's runtime: macOS
    // 15, iOS 18) and the String algorithms of Swift 5.7 (`firstRange(of:)`, macOS 13, iOS 16).
    // Linux ignores it. A package that depends on DiffLab declares at least these.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        // Everything, re-exported: `import DiffLab`.
        .library(name: "DiffLab", targets: ["DiffLab"]),
        // Each layer on its own, for packages that need only part of it.
        .library(name: "DiffLabCore", targets: ["DiffLabCore"]),
        .library(name: "DiffLabEngines", targets: ["DiffLabEngines"]),
        .library(name: "DiffLabBatch", targets: ["DiffLabBatch"]),
        .library(name: "DiffLabUpdaters", targets: ["DiffLabUpdaters"]),
        .library(name: "DiffLabFuzz", targets: ["DiffLabFuzz"]),
        .library(name: "DiffLabBench", targets: ["DiffLabBench"]),
        .library(name: "DiffLabGate", targets: ["DiffLabGate"]),
        .library(name: "DiffLabReport", targets: ["DiffLabReport"]),
        .library(name: "DiffLabJSON", targets: ["DiffLabJSON"]),
        .library(name: "DiffLabFormatting", targets: ["DiffLabFormatting"]),
        .library(name: "DiffLabResults", targets: ["DiffLabResults"]),
        .library(name: "DiffLabProcess", targets: ["DiffLabProcess"]),
        .library(name: "DiffLabTraces", targets: ["DiffLabTraces"]),
        // The command line as a library (`DiffLabRunner.main(engines:)`): product and module share one name.
        .library(name: "DiffLabCLI", targets: ["DiffLabCLI"]),
        .executable(name: "difflab", targets: ["difflab"]),
        // DiffLab's own maintenance commands (mutate, coverage): not part of DiffLabCLI.
        .executable(name: "difflab-dev", targets: ["difflab-dev"]),
        // libFuzzer target: swift build -c release --sanitize=fuzzer --sanitize=address --product difflab-fuzz
        .executable(name: "difflab-fuzz", targets: ["DiffLabFuzzTarget"]),
        // libFuzzer target over the file decoders: the same flags, --product difflab-decode-fuzz
        .executable(name: "difflab-decode-fuzz", targets: ["DiffLabDecodeFuzzTarget"]),
    ],
    // Foundation: the libraries and the CLI may use it (FoundationEssentials where the toolchain
    // has it) for `UUID` only: an element identifier (DiffLabCore), the benchmark's UUID datasets
    // (DiffLabBench) and its string form on the engine wire (DiffLabCLI's `WireElement`
    // conformance of the benchmark's elements; DiffLabProcess itself has no Foundation), and for
    // DiffLabCore's `availableCores()` (`ProcessInfo`, and `/proc/self/status` read as a string, so
    // the core needs no C library). JSON, files, processes, clocks and formatting are DiffLab's own
    // or DiffLabPlatform's, so hostile input meets code under our tests and no Foundation version
    // changes an output byte. Tests may use Foundation freely.
    targets: [
        // The one layer between DiffLab and the operating system (no product of its own).
        .target(name: "DiffLabPlatform"),
        .target(name: "DiffLabCore"),
        .target(name: "DiffLabEngines", dependencies: ["DiffLabCore"]),
        .target(name: "DiffLabBatch", dependencies: ["DiffLabCore"]),
        // Updaters under test: the updater contract, models of the updaters apps use, and the
        // deterministic scheduler that checks them under every interleaving (pure Swift, like the
        // layers below it, so an iOS test target runs it).
        .target(name: "DiffLabUpdaters", dependencies: ["DiffLabCore", "DiffLabEngines", "DiffLabBatch"]),
        .target(
            name: "DiffLabFuzz",
            dependencies: [
                "DiffLabCore", "DiffLabEngines", "DiffLabBatch", "DiffLabJSON", "DiffLabFormatting", "DiffLabProcess", "DiffLabResults",
                "DiffLabPlatform",
            ]),
        .target(
            name: "DiffLabBench",
            dependencies: [
                "DiffLabCore", "DiffLabEngines", "DiffLabBatch", "DiffLabUpdaters", "DiffLabFormatting", "DiffLabResults", "DiffLabPlatform",
            ]),
        .target(name: "DiffLabJSON"),
        // DiffLab's one set of number, time, byte and date formatters: a leaf, pure Swift (no C
        // library, not DiffLabPlatform), so every layer that writes text for people uses it
        // without depending on the results schemas, and an iOS target links it.
        .target(name: "DiffLabFormatting"),
        // Processes: spawning, cleanup on signals, forked children, and engines in other processes.
        .target(name: "DiffLabProcess", dependencies: ["DiffLabCore", "DiffLabJSON", "DiffLabFormatting", "DiffLabPlatform"]),
        // Importers of recorded traces (difflab-trace/1): folders of snapshots, an app's JSON lines, git history.
        .target(
            name: "DiffLabTraces",
            dependencies: ["DiffLabCore", "DiffLabEngines", "DiffLabJSON", "DiffLabProcess", "DiffLabResults", "DiffLabPlatform"]),
        // The single home of DiffLab's own file schemas (bench, policy, measure, gate) as typed records.
        .target(
            name: "DiffLabResults",
            dependencies: ["DiffLabCore", "DiffLabEngines", "DiffLabBatch", "DiffLabUpdaters", "DiffLabJSON", "DiffLabFormatting"]),
        .target(name: "DiffLabGate", dependencies: ["DiffLabCore", "DiffLabJSON", "DiffLabFormatting", "DiffLabResults", "DiffLabPlatform"]),
        .target(
            name: "DiffLabReport",
            dependencies: ["DiffLabCore", "DiffLabEngines", "DiffLabUpdaters", "DiffLabFormatting", "DiffLabResults", "DiffLabPlatform"]),
        .target(
            name: "DiffLabCLI",
            dependencies: [
                "DiffLabCore", "DiffLabEngines", "DiffLabBatch", "DiffLabUpdaters", "DiffLabFuzz", "DiffLabBench", "DiffLabJSON", "DiffLabFormatting",
                "DiffLabGate", "DiffLabReport", "DiffLabResults", "DiffLabProcess", "DiffLabTraces", "DiffLabPlatform",
            ]),
        .target(
            name: "DiffLab",
            dependencies: [
                "DiffLabCore", "DiffLabEngines", "DiffLabBatch", "DiffLabUpdaters", "DiffLabFuzz", "DiffLabBench", "DiffLabJSON", "DiffLabFormatting",
                "DiffLabGate", "DiffLabReport", "DiffLabResults", "DiffLabProcess", "DiffLabTraces", "DiffLabCLI",
            ]),
        .executableTarget(name: "difflab", dependencies: ["DiffLabCLI"]),
        .target(
            name: "DiffLabDev",
            dependencies: [
                "DiffLabCLI", "DiffLabBench", "DiffLabCore", "DiffLabJSON", "DiffLabFormatting", "DiffLabProcess", "DiffLabResults",
                "DiffLabPlatform",
            ]),
        .executableTarget(name: "difflab-dev", dependencies: ["DiffLabCLI", "DiffLabDev"]),
        .executableTarget(name: "DiffLabFuzzTarget", dependencies: ["DiffLabFuzz"]),
        // The decoders' fuzzing harness, below the CLI: every input format's decoder and what its
        // value must survive (shared by difflab-decode-fuzz and the tests; no product).
        .target(
            name: "DiffLabDecodeFuzzing",
            dependencies: [
                "DiffLabBatch", "DiffLabBench", "DiffLabCore", "DiffLabEngines", "DiffLabFuzz", "DiffLabGate", "DiffLabJSON", "DiffLabReport",
                "DiffLabResults",
            ]),
        .executableTarget(name: "DiffLabDecodeFuzzTarget", dependencies: ["DiffLabDecodeFuzzing"]),
        .target(name: "DiffLabTestSupport", dependencies: ["DiffLabCore", "DiffLabEngines", "DiffLabFuzz"], path: "Tests/Support"),
        .testTarget(name: "DiffLabPlatformTests", dependencies: ["DiffLabPlatform"]),
        .testTarget(name: "DiffLabCoreTests", dependencies: ["DiffLabCore", "DiffLabFuzz", "DiffLabTestSupport"]),
        .testTarget(
            name: "DiffLabEnginesTests", dependencies: ["DiffLabCore", "DiffLabEngines", "DiffLabFuzz", "DiffLabTestSupport", "DiffLabPlatform"]),
        .testTarget(name: "DiffLabBatchTests", dependencies: ["DiffLabCore", "DiffLabEngines", "DiffLabBatch", "DiffLabFuzz", "DiffLabTestSupport"]),
        .testTarget(
            name: "DiffLabFuzzTests",
            dependencies: [
                "DiffLabCore", "DiffLabEngines", "DiffLabBatch", "DiffLabFuzz", "DiffLabJSON", "DiffLabProcess", "DiffLabResults", "DiffLabPlatform",
                "DiffLabTestSupport",
            ]),
        .testTarget(name: "DiffLabProcessTests", dependencies: ["DiffLabProcess", "DiffLabCore", "DiffLabJSON", "DiffLabPlatform"]),
        .testTarget(
            name: "DiffLabBenchTests",
            dependencies: [
                "DiffLabCore", "DiffLabEngines", "DiffLabBench", "DiffLabBatch", "DiffLabResults", "DiffLabUpdaters", "DiffLabJSON",
                "DiffLabPlatform",
            ]),
        .testTarget(name: "DiffLabJSONTests", dependencies: ["DiffLabJSON"]),
        .testTarget(name: "DiffLabFormattingTests", dependencies: ["DiffLabFormatting"]),
        .testTarget(name: "DiffLabUpdatersTests", dependencies: ["DiffLabUpdaters", "DiffLabCore", "DiffLabEngines", "DiffLabBatch"]),
        .testTarget(
            name: "DiffLabTracesTests",
            dependencies: ["DiffLabTraces", "DiffLabResults", "DiffLabJSON", "DiffLabCore", "DiffLabEngines", "DiffLabPlatform"]),
        .testTarget(name: "DiffLabGateTests", dependencies: ["DiffLabGate", "DiffLabJSON", "DiffLabResults", "DiffLabPlatform"]),
        .testTarget(
            name: "DiffLabReportTests",
            dependencies: ["DiffLabReport", "DiffLabCore", "DiffLabJSON", "DiffLabFormatting", "DiffLabResults", "DiffLabUpdaters"]),
        .testTarget(name: "DiffLabResultsTests", dependencies: ["DiffLabResults", "DiffLabCore", "DiffLabJSON", "DiffLabPlatform"]),
        .testTarget(
            name: "DiffLabCLITests",
            dependencies: [
                "DiffLabCLI", "DiffLabDev", "DiffLabDecodeFuzzing", "DiffLabCore", "DiffLabJSON", "DiffLabFuzz", "DiffLabBench", "DiffLabGate",
                "DiffLabReport", "DiffLabResults", "DiffLabUpdaters", "DiffLabPlatform", "DiffLabEngines", "DiffLabProcess",
            ],
            exclude: ["Fixtures"]),
        // Runs the built `difflab` executable against a catalogue of hostile inputs (a trap or a
        // hang must be seen as such, not take the test runner down).
        .testTarget(
            name: "DiffLabHostileTests", dependencies: ["difflab", "difflab-dev", "DiffLabCLI", "DiffLabJSON", "DiffLabResults", "DiffLabPlatform"]),
    ],
    swiftLanguageModes: [.v6]
)
