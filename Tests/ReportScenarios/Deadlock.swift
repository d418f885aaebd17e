import Schedulable

/// A `sync` from a tree's work into one of its branches: the branch drains through the tree, which
/// waits for the branch — reported before libdispatch is entered, instead of a hang.
func deadlock() {
    let network = SerialQueueScheduler(label: "com.app.network")
    let images = network.branch("images")
    network.sync {
        images.sync { print("never runs") }
    }
}
