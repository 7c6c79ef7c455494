// DiffLabPlatform: the one layer between DiffLab and the operating system. It is the only module
// that imports a C library module (Glibc on Linux, Darwin on Apple systems), and it does not
// re-export it: every other module, and every test, reaches the system through the typed pieces
// below, so a C name outside this layer does not compile in a file that imports only DiffLab's
// modules (Foundation re-exports the C module on Linux and Darwin alike, so a file importing it
// still could: every such call was converted, and review keeps it so). `LayeringTests` holds every
// file of Sources and Tests to importing no C module, and this layer to re-exporting none. Each
// file of the layer imports the C module it needs itself.
//
// Typed pieces (each with its Darwin branch where the systems differ): `PlatformError` (errno, its
// name, the operation and path), `FileDescriptor` and `FileFacts`, `FileSystem` (paths, folders,
// links, FIFOs, temporary folders), `Signal` and `SignalMask`, `spawnProcess(_:)` (posix_spawn
// with file actions, a working directory, a process group, signal defaults), waiting and reaping
// (`WaitStatus`), `processIsAlive`, `processCommandLine`, `allProcessIDs`, `executablePath`,
// `MachineFacts`, `JemallocLibrary`, threads, signal waiting, resource usage, shared memory,
// symbol lookup, the wall clock and a few maths functions.
//
// Musl (the static Linux SDK) is not supported: DiffLab is neither built nor tested against it,
// and parts of this layer assume glibc's types (`pthread_t` as an integer, for one). The #error
// below says so rather than claiming a branch no one compiles.
//
// DiffLabCore, DiffLabEngines and DiffLabBatch do not use it (nor any C library module): the
// vocabulary, the engines and the batch model are pure Swift, so an iOS test target can link them
// with nothing of this layer.

#if canImport(Glibc)
#elseif canImport(Darwin)
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only; Musl and others are not built or tested")
#endif
