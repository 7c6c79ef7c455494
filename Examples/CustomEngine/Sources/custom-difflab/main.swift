// `difflab` with this package's engines and updaters registered next to the built-ins:
//   swift run custom-difflab fuzz --engines occurrence,iglistkit-batch --seconds 5
//   swift run custom-difflab updaters --updaters chat-feed,chat-feed-serial --runs 2000
import ChatFeed
import CustomEngine
import DiffLab

DiffLabRunner.main(
    engines: [
        RegisteredEngine(OccurrenceEngine()), RegisteredEngine(IGListKitBatchEngine()), RegisteredEngine(FragileEngine()),
    ],
    updaters: [
        ChatFeedUpdater.subject(engine: OccurrenceEngine()), SerialChatFeedUpdater.subject(engine: OccurrenceEngine()),
    ])
