import Schedulable

/// Work handed to a thread scheduler after it was shut down: rejected, reported, never silently
/// dropped.
func afterShutdown() {
    let business = ThreadScheduler(label: "com.app.business")
    business.shutdown()
    business.schedule { print("never runs") }
}
