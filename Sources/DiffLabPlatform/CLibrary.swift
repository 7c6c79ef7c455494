// DiffLabPlatform: the one layer between DiffLab and the operating system. It is the only module
// that imports a C library module (Glibc, Musl or Darwin; `LayeringTests` holds every other file
// of Sources to that), re-exports it for the POSIX calls that are the same everywhere (open, read,
// write, poll, kill, waitpid, ...), and wraps what differs, each with its Darwin branch: threads,
// signal waiting, the environment, spawn attribute types, the executable's path, resource usage
// and its units, the processor and memory counts, anonymous shared memory and symbol lookup.
//
// DiffLabCore, DiffLabEngines and DiffLabBatch do not use it (nor any C library module): the
// vocabulary, the engines and the batch model are pure Swift, so an iOS test target can link them
// with nothing of this layer.

#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("DiffLabPlatform: no C library module (Glibc, Musl or Darwin) for this platform")
#endif
