// `difflab` with this package's engines registered next to the built-ins:
//   swift run custom-difflab fuzz --engines occurrence,iglistkit-batch --seconds 5
import CustomEngine
import DiffLab

DiffLabRunner.main(engines: [
    RegisteredEngine(OccurrenceEngine()), RegisteredEngine(IGListKitBatchEngine()), RegisteredEngine(FragileEngine()),
])
