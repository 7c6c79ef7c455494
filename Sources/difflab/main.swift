import DiffLabCLI

// The built-in engines only; a package of its own registers more with the same call.
DiffLabRunner.main(engines: [])
