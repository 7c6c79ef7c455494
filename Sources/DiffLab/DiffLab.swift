// The umbrella module: `import DiffLab` gives a package everything DiffLab makes public.
//
// - DiffLabCore: the vocabulary (`Diffable`, `DiffEngine`, `ChangesetEngine`, `DiffResult`,
//   `EngineResult`, `EnginePromises`, ...).
// - DiffLabEngines: the built-in engines (`HeckelEngine`, `HashMapEngine`, `MyersEngine`,
//   `StdlibEngine`).
// - DiffLabBatch: UIKit's batch-update model (`BatchUpdate`, validation, the applier, staged
//   changesets).
// - DiffLabUpdaters: updaters under test (`ListUpdater`, `CollectionViewModel`, the deterministic
//   scheduler, `UpdaterFuzzer`, the built-in updater models in `BuiltInUpdaters`).
// - DiffLabFuzz: property-based fuzzing of any engine (`FuzzSubject`, `Fuzzer`, regression cases).
// - DiffLabBench: benchmarks and the policy lab (`BenchSubject`, `runBench`, `runPolicy`).
// - DiffLabGate, DiffLabReport, DiffLabJSON, DiffLabResults: gate statistics, reports, JSON, the
//   typed records of DiffLab's results files.
// - DiffLabFormatting: the one set of number, time, byte and date formatters (`NumberStyle`,
//   `formatBytes`, `formatPlain`, `UTCDateTime`, ...).
// - DiffLabProcess: processes (`ProcessEngine`, engines in other processes over the
//   `difflab-engine/1` protocol, `WireElement`), used by crash-isolated fuzzing
//   (`runFuzzerIsolated` in DiffLabFuzz).
// - DiffLabTraces: importers of recorded traces (`SnapshotImport`, `GitImport`) into `Trace`
//   (`difflab-trace/1`, a DiffLabResults record).
// - DiffLabCLI: the command line as a library (`DiffLabRunner`, `RegisteredEngine`).
@_exported import DiffLabBatch
@_exported import DiffLabBench
@_exported import DiffLabCLI
@_exported import DiffLabCore
@_exported import DiffLabEngines
@_exported import DiffLabFormatting
@_exported import DiffLabFuzz
@_exported import DiffLabGate
@_exported import DiffLabJSON
@_exported import DiffLabProcess
@_exported import DiffLabReport
@_exported import DiffLabResults
@_exported import DiffLabTraces
@_exported import DiffLabUpdaters
