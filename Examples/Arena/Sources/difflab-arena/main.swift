import ArenaEngines
import DiffLab

// `difflab` with the arena's contestants registered beside DiffLab's engines: every command
// (`fuzz`, `bench`, `arena`, `report`, ...) takes them by name.
DiffLabRunner.main(engines: ArenaContestants.all)
