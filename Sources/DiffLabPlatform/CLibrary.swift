// DiffLabPlatform: the one layer between DiffLab and the operating system. It is the only module
// that imports a C library module (Glibc on Linux, Darwin on Apple systems; `LayeringTests` holds
// every other file of Sources to that). Each of its files imports the C module it needs itself.
//
// Typed pieces (each with its Darwin branch where the systems differ): `PlatformError` (errno, its
// name, the operation and path), `FileDescriptor` and `FileFacts`, `FileSystem` (paths, folders,
// links, FIFOs, temporary folders), `Signal`, `spawnProcess(_:)` (posix_spawn with file actions,
// a working directory, a process group, signal defaults), waiting and reaping (`WaitStatus`),
// `processIsAlive`, `processCommandLine`, `allProcessIDs`, `executablePath`, `MachineFacts`,
// `JemallocLibrary`, threads, signal waiting, resource usage, shared memory and symbol lookup.
//
// Not yet all of DiffLab goes through the typed pieces: the C module is still re-exported below
// for the files that call POSIX directly (see the notes of issue 42); a file converted to the
// typed pieces must not gain new C calls, and the re-export goes once none is left.
//
// Musl (the static Linux SDK) is not supported: DiffLab is neither built nor tested against it,
// and parts of this layer assume glibc's types (`pthread_t` as an integer, for one). The #error
// below says so rather than claiming a branch no one compiles.
//
// DiffLabCore, DiffLabEngines and DiffLabBatch do not use it (nor any C library module): the
// vocabulary, the engines and the batch model are pure Swift, so an iOS test target can link them
// with nothing of this layer.

#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only; Musl and others are not built or tested")
#endif
