import Schedulable

/// The queue uploads run on.
let uploads = SerialQueueScheduler(label: "com.app.uploads")

enum Services {
    static let network = SerialQueueScheduler(label: "com.app.network")
    static let disk: ThreadScheduler = Schedulable.ThreadScheduler(label: "com.app.disk")
}

final class Pipeline {
    let render = SerialQueueScheduler(label: "com.app.render")
}
